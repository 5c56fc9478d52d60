"use client";

import type { EndpointCapabilities, InputModeFinding } from "@/lib/judge/endpoints/endpoint-capabilities";
import { INPUT_MODE_DESCRIPTIONS, INPUT_MODES, inputModeOf, type InputMode } from "@/lib/judge/input-modes";

const field = "rounded-md border border-slate-300 px-2 py-1.5 text-sm";

const kib = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.round(bytes / 1024)} KiB`;

/** What the probe found of one mode, in a line: accepted (with its most frames, largest body, what it saw) or refused. */
export function findingLine(mode: InputMode, finding: InputModeFinding): string {
  if (finding.accepted === "no") return `refused${finding.refusal ? `: “${finding.refusal}”` : ""}`;
  if (finding.accepted === "unknown") return "not settled (see the probe's notes)";
  const parts = ["accepted"];
  if (finding.maxFrames !== null)
    parts.push(
      mode === "images"
        ? `up to ${finding.maxFrames} images per request`
        : mode === "video-frames"
          ? `up to ${finding.maxFrames} frames per video`
          : `${finding.maxFrames} frames sampled`,
    );
  if (finding.maxBodyBytes !== null) parts.push(`bodies up to ${kib(finding.maxBodyBytes)}`);
  if (finding.sawFrames !== null) parts.push(`said it saw ${finding.sawFrames} frames`);
  if (finding.byUrl === "yes")
    parts.push(finding.maxBodyBytes === null ? "by a signed URL only (no data URL was taken)" : "also by a signed URL");
  if (finding.byUrl === "no") parts.push("not by a signed URL");
  return parts.join(", ");
}

/**
 * The endpoint's input mode (lib/judge/input-modes.ts), editable, with what the last probe found of each mode. A mode
 * the probe found refused is still the owner's choice: a warning, not a block (a server may be restarted for video).
 */
export function InputModeField({
  value,
  onChange,
  capabilities,
}: {
  value: string;
  onChange: (mode: InputMode) => void;
  capabilities: EndpointCapabilities | null;
}) {
  const mode = inputModeOf(value);
  const findings = capabilities?.inputModes ?? null;
  const refused = findings?.[mode].accepted === "no";
  return (
    <div className="col-span-2 flex flex-col gap-1" data-testid="endpoint-input-mode">
      <label className="flex flex-col gap-1">
        Input mode
        <select className={field} value={mode} onChange={(e) => onChange(inputModeOf(e.target.value))}>
          {INPUT_MODES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <p className="text-xs text-slate-600">{INPUT_MODE_DESCRIPTIONS[mode]}</p>
      {findings ? (
        <ul className="text-xs text-slate-600" data-testid="endpoint-input-mode-findings">
          {INPUT_MODES.map((option) => (
            <li key={option}>
              <span className="font-medium">{option}</span>: {findingLine(option, findings[option])}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-slate-500">Test the endpoint to find which modes it takes.</p>
      )}
      {refused && (
        <p role="status" className="text-amber-800" data-testid="endpoint-input-mode-warning">
          The last probe found this endpoint refuses {mode}: runs in this mode are refused until a new Test finds it
          accepted (the server may have changed since).
        </p>
      )}
    </div>
  );
}
