import type { ReactNode } from "react";

/** The list filter forms' input style (selects and the odd number input beside them). */
export const FILTER_INPUT = "rounded-md border border-slate-300 px-2 py-1.5";

/** A choice: a plain string is both the value and the text. */
export type FilterOption = string | { value: string; label: ReactNode };

/**
 * A labelled <select> of a list page's GET filter form: the label above the select, an optional empty option
 * ("every model", "any") that clears the filter, then the choices. Server-component safe (no state: the form submits).
 */
export function FilterSelect({
  label,
  name,
  defaultValue,
  empty,
  options,
  className,
  labelClassName,
  testId,
}: {
  label: ReactNode;
  name: string;
  defaultValue?: string;
  /** The text of the empty option (value ""); none when left out. */
  empty?: string;
  options: readonly FilterOption[];
  /** Classes added to the select's (such as a max width). */
  className?: string;
  /** Classes of the label's text (a bolder label where the form is a page's main choice). */
  labelClassName?: string;
  testId?: string;
}) {
  return (
    <label className="flex flex-col gap-1">
      <span className={labelClassName}>{label}</span>
      <select
        name={name}
        defaultValue={defaultValue}
        className={className ? `${FILTER_INPUT} ${className}` : FILTER_INPUT}
        data-testid={testId}
      >
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((option) =>
          typeof option === "string" ? (
            <option key={option}>{option}</option>
          ) : (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ),
        )}
      </select>
    </label>
  );
}

/** The "Video" filter of a list of one project's items (captions, questions): every video by its path. */
export function VideoFilterSelect({
  videos,
  defaultValue,
}: {
  videos: readonly { id: string; relativePath: string }[];
  defaultValue?: string;
}) {
  return (
    <FilterSelect
      label="Video"
      name="videoId"
      defaultValue={defaultValue ?? ""}
      empty="every video"
      options={videos.map((v) => ({ value: v.id, label: v.relativePath }))}
      className="max-w-64"
    />
  );
}
