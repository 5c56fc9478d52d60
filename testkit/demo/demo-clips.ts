// Generated clips (ffmpeg test sources) under VBench-style names; the prompts are VBench-2.0's.
export const CLIPS = [
  {
    source: "testsrc2=size=480x270:rate=24",
    path: "Mechanics/A bowl of soup is tilted in the space station, with the liquid slowly spreading in all directions.-0.mp4",
  },
  { source: "mandelbrot=size=480x270:rate=24", path: "Thermotics/A block of ice melts on a hot stove.-0.mp4" },
  {
    source: "life=size=480x270:rate=24:mold=10:ratio=0.1",
    path: "Material/A piece of paper is folded into a paper airplane.-0.mp4",
  },
  {
    source: "cellauto=size=480x270:rate=24:rule=110",
    path: "Dynamic_Attribute/A river changes from blue to brown.-0.mp4",
  },
];
