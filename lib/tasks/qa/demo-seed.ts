/**
 * The QA task's part of the demo (testkit/demo/seed-demo-project.ts): a simulated question set answered by two
 * simulated models (one sees the frames, one guesses), judged by a third stub endpoint; the first also at 16
 * frames and without frames (the text-only baseline).
 */
import path from "node:path";
import type { DemoSeedPart } from "../../../testkit/demo/demo-part";
import { CLIPS } from "../../../testkit/demo/demo-clips";

export const qaDemo: DemoSeedPart = {
  async seed({ projectId, endpointId, stubBaseUrl, api, log }) {
    const form = new FormData();
    form.set("name", "Demo questions (simulated)");
    form.set("citation", "Written for the demo in FrameJury's question-set format");
    form.set("file", new Blob([demoQuestions()]), "demo-questions.jsonl");
    const questionSet = await api(`/api/v1/projects/${projectId}/question-sets`, { form });
    const questionSetId = String((questionSet.set as { id: string }).id);
    const stubEndpoint = (name: string, model: string) =>
      api(`/api/v1/projects/${projectId}/endpoints`, {
        json: { name, baseUrl: stubBaseUrl, model, apiKey: null, maxConcurrency: 8, imageDetail: "low" },
      });
    const guesser = await stubEndpoint("Stub guesser (simulated)", "stub-guess");
    const judge = await stubEndpoint("Stub judge (simulated)", "stub-judge");
    for (const [evaluatedId, settings] of [
      [endpointId, { frames: 8, textOnlyBaseline: true }],
      [String(guesser.id), { frames: 8 }],
      [endpointId, { frames: 16 }],
    ] as const) {
      const qaRun = await api(`/api/v1/projects/${projectId}/runs`, {
        json: {
          pipeline: "qa",
          endpointId: evaluatedId,
          questionSetId,
          settings: { ...settings, judgeEndpointId: judge.id },
        },
      });
      log(`started a simulated QA run ${String(qaRun.id)}`);
    }
    return [];
  },
};

/** A multiple-choice question in FrameJury's question-set format. */
const mc = (
  id: string,
  video: string,
  question: string,
  options: Record<string, string>,
  answer: string,
  category: string,
  granularity: "coarse" | "fine",
) => ({ id, video, question, format: "mc", options, answer, category, granularity });

/** An open question in FrameJury's question-set format. */
const open = (
  id: string,
  video: string,
  question: string,
  answer: string,
  category: string,
  granularity: "coarse" | "fine",
) => ({ id, video, question, format: "open", answer, category, granularity });

/** Each of the first four demo clips' questions (soup in space, ice on a stove, folded paper, a river), by its file name. */
const QUESTIONS_OF_CLIP: readonly ((video: string) => object[])[] = [
  (video) => [
    mc(
      "soup-1",
      video,
      "What happens to the soup when the bowl is tilted?",
      {
        A: "The soup spreads slowly in all directions.",
        B: "The soup and the bowl stay tilted and still.",
        C: "It turns into ice.",
      },
      "A",
      "Step Sequencing",
      "coarse",
    ),
    mc(
      "soup-2",
      video,
      "Where is the bowl of soup?",
      { A: "On a kitchen table.", B: "In the space station, the bowl of soup floats.", C: "In a garden." },
      "B",
      "Object Attribute Recognition",
      "fine",
    ),
    open(
      "soup-3",
      video,
      "How does the liquid move in the space station?",
      "The liquid moves through the space station.",
      "Step Sequencing",
      "coarse",
    ),
  ],
  (video) => [
    mc(
      "ice-1",
      video,
      "What melts on the hot stove?",
      { A: "A block of ice melts on the hot stove.", B: "A candle.", C: "Butter." },
      "A",
      "Object Existence in Steps",
      "coarse",
    ),
    mc(
      "ice-2",
      video,
      "What is left on the stove after the ice melts?",
      { A: "A puddle of water.", B: "The ice melts and is left on the stove.", C: "Smoke." },
      "A",
      "Future Step Prediction",
      "fine",
    ),
    open(
      "ice-3",
      video,
      "What heats the block of ice?",
      "The stove underneath it.",
      "Specific Step Recognition",
      "fine",
    ),
  ],
  (video) => [
    mc(
      "paper-1",
      video,
      "What is the paper folded into?",
      { A: "A paper airplane.", B: "A paper boat, folded twice.", C: "A crane." },
      "A",
      "Step Sequencing",
      "coarse",
    ),
    mc(
      "paper-2",
      video,
      "What happens to the piece of paper?",
      { A: "The piece of paper is folded.", B: "It burns.", C: "It is torn." },
      "A",
      "Intermediate Steps Recognition",
      "fine",
    ),
    open(
      "paper-3",
      video,
      "What does the paper become?",
      "The paper becomes a paper airplane.",
      "Object Interaction Recognition",
      "coarse",
    ),
  ],
  (video) => [
    mc(
      "river-1",
      video,
      "What colour does the river change to?",
      { A: "Brown.", B: "Green.", C: "Blue." },
      "A",
      "Object Attribute Recognition",
      "fine",
    ),
    mc(
      "river-2",
      video,
      "What colour was the river before it changed?",
      { A: "The river was brown before it changed colour.", B: "Blue.", C: "Red." },
      "B",
      "Past Step Recall",
      "coarse",
    ),
    open(
      "river-3",
      video,
      "How does the river change?",
      "The river changes from blue to brown.",
      "Step Sequencing",
      "coarse",
    ),
  ],
];

/**
 * The demo's simulated question set in FrameJury's question-set format: per clip two multiple-choice and one
 * open question. By the stub's rules (lib/tasks/qa/stub-rules.ts) a model that sees picks the option sharing
 * the most words with the question, so some distractors are written to win: the simulated model gets about
 * half right, and the open answers that restate the question are judged right only where the reference shares
 * their words.
 */
export function demoQuestions(): string {
  const questions = QUESTIONS_OF_CLIP.flatMap((questionsOf, i) => questionsOf(path.basename(CLIPS[i]!.path)));
  return questions.map((q) => JSON.stringify(q)).join("\n") + "\n";
}
