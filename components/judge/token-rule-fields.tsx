// The endpoint form's token rule (lib/judge/endpoints/token-rules.ts): what a picture, a video frame and a second of a clip
// cost in input tokens, for the cost estimate. All three blank: the documented provider's default.

const field = "w-24 rounded-md border border-slate-300 px-2 py-1.5 text-sm";

export interface TokenRuleForm {
  tokensPerImage: string;
  tokensPerVideoFrame: string;
  tokensPerVideoSecond: string;
}

export const EMPTY_TOKEN_RULE: TokenRuleForm = {
  tokensPerImage: "",
  tokensPerVideoFrame: "",
  tokensPerVideoSecond: "",
};

/** The stored rule as the form shows it (blank when the endpoint has none). */
export function tokenRuleFormOf(stored: unknown): TokenRuleForm {
  const rule = stored as Partial<Record<keyof TokenRuleForm, unknown>> | null;
  const text = (value: unknown) => (typeof value === "number" ? String(value) : "");
  return rule
    ? {
        tokensPerImage: text(rule.tokensPerImage),
        tokensPerVideoFrame: text(rule.tokensPerVideoFrame),
        tokensPerVideoSecond: text(rule.tokensPerVideoSecond),
      }
    : EMPTY_TOKEN_RULE;
}

/**
 * What the form sends: null when every field is blank (the provider's default), else the three numbers (a blank
 * one among filled ones is sent as such, and the server's 400 names it).
 */
export function tokenRuleOf(form: TokenRuleForm): Record<keyof TokenRuleForm, number> | null {
  const values = [form.tokensPerImage, form.tokensPerVideoFrame, form.tokensPerVideoSecond].map((v) => v.trim());
  if (values.every((v) => v === "")) return null;
  const num = (v: string) => (v === "" ? Number.NaN : Number(v));
  return {
    tokensPerImage: num(values[0]!),
    tokensPerVideoFrame: num(values[1]!),
    tokensPerVideoSecond: num(values[2]!),
  };
}

export function TokenRuleFields({ value, onChange }: { value: TokenRuleForm; onChange(next: TokenRuleForm): void }) {
  const input = (key: keyof TokenRuleForm, label: string) => (
    <label className="flex flex-col gap-1">
      {label}
      <input
        className={field}
        inputMode="numeric"
        placeholder="default"
        value={value[key]}
        onChange={(e) => onChange({ ...value, [key]: e.target.value })}
        data-testid={`endpoint-token-rule-${key}`}
      />
    </label>
  );
  return (
    <fieldset className="col-span-2 flex flex-wrap items-end gap-3" data-testid="endpoint-token-rule">
      <legend className="text-slate-600">
        Token rule for cost estimates (blank: the provider&apos;s documented default)
      </legend>
      {input("tokensPerImage", "tokens / image")}
      {input("tokensPerVideoFrame", "tokens / video frame")}
      {input("tokensPerVideoSecond", "tokens / clip second")}
    </fieldset>
  );
}
