"use client";

export interface ExtractionSettingsValue {
  mode: "density-peaks" | "scene-change" | "uniform";
  sampleFps: number;
  keyFrames: number | "auto";
  neighbours: number;
  count: number;
  maxSide: number;
}

export const defaultExtractionSettings: ExtractionSettingsValue = {
  mode: "density-peaks",
  sampleFps: 4,
  keyFrames: "auto",
  neighbours: 2,
  count: 8,
  maxSide: 768,
};

/** The frame-set parameters for the chosen mode (each mode's schema is strict). */
export function settingsToParameters(settings: ExtractionSettingsValue) {
  if (settings.mode === "uniform") return { mode: "uniform", count: settings.count, maxSide: settings.maxSide };
  if (settings.mode === "scene-change")
    return {
      mode: "scene-change",
      sampleFps: settings.sampleFps,
      neighbours: settings.neighbours,
      maxSide: settings.maxSide,
    };
  return {
    mode: "density-peaks",
    sampleFps: settings.sampleFps,
    keyFrames: settings.keyFrames,
    neighbours: settings.neighbours,
    maxSide: settings.maxSide,
  };
}

const inputClass = "w-24 rounded-md border border-slate-300 px-2 py-1 text-sm";

/** Frame-extraction parameters: stored with each frame set and part of its identity. */
export function ExtractionSettings({
  value,
  onChange,
}: {
  value: ExtractionSettingsValue;
  onChange: (value: ExtractionSettingsValue) => void;
}) {
  const set = (patch: Partial<ExtractionSettingsValue>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="flex flex-wrap items-end gap-3 text-sm">
      <label className="flex flex-col gap-1">
        <span className="font-medium text-slate-700">Key frames</span>
        <select
          value={value.mode}
          onChange={(e) => set({ mode: e.target.value as ExtractionSettingsValue["mode"] })}
          className="rounded-md border border-slate-300 px-2 py-1.5"
        >
          <option value="density-peaks">density peaks (Sora Detector)</option>
          <option value="scene-change">scene changes</option>
          <option value="uniform">uniform N</option>
        </select>
      </label>
      {value.mode !== "uniform" ? (
        <>
          <label className="flex flex-col gap-1">
            <span className="text-slate-700">Sample fps</span>
            <input
              type="number"
              min={0.25}
              max={30}
              step={0.25}
              value={value.sampleFps}
              onChange={(e) => set({ sampleFps: Number(e.target.value) })}
              className={inputClass}
            />
          </label>
          {value.mode === "density-peaks" && (
            <label className="flex flex-col gap-1">
              <span className="text-slate-700">Key frames (m)</span>
              <input
                value={value.keyFrames}
                onChange={(e) =>
                  set({
                    keyFrames: e.target.value === "auto" || e.target.value === "" ? "auto" : Number(e.target.value),
                  })
                }
                className={inputClass}
                placeholder="auto"
              />
            </label>
          )}
          <label className="flex flex-col gap-1">
            <span className="text-slate-700">Neighbours (n)</span>
            <input
              type="number"
              min={0}
              max={8}
              value={value.neighbours}
              onChange={(e) => set({ neighbours: Number(e.target.value) })}
              className={inputClass}
            />
          </label>
        </>
      ) : (
        <label className="flex flex-col gap-1">
          <span className="text-slate-700">Frames</span>
          <select
            value={value.count}
            onChange={(e) => set({ count: Number(e.target.value) })}
            className="rounded-md border border-slate-300 px-2 py-1.5"
          >
            <option value={8}>8</option>
            <option value={16}>16</option>
          </select>
        </label>
      )}
      <label className="flex flex-col gap-1">
        <span className="text-slate-700">Longest side (px)</span>
        <input
          type="number"
          min={64}
          max={4096}
          step={16}
          value={value.maxSide}
          onChange={(e) => set({ maxSide: Number(e.target.value) })}
          className={inputClass}
        />
      </label>
    </fieldset>
  );
}
