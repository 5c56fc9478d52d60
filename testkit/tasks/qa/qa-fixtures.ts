/**
 * Question sets for tests, in FrameJury's question-set format, written for the videos of
 * testkit/testing/judge-fixtures.ts (`Mechanics/A ball rolls down a ramp number <v>-0.mp4`).
 */
import { fixtureVideoName, jsonlBytes } from "../../testing/item-files";

export interface QuestionLine {
  id: string;
  video: string;
  question: string;
  format: "mc" | "open";
  options?: Record<string, string>;
  answer: string;
  category?: string;
  granularity?: "coarse" | "fine";
}

/**
 * Two videos, four questions. By the stub's rules (lib/tasks/qa/stub-rules.ts), a model that sees frames
 * picks the option sharing the most words with the question: right on q1 and q3, wrong on q2 (its
 * distractor echoes the question); the open question q4's reference shares the question's words, so the
 * stub's answer, which restates the question, is judged right.
 */
export function smallQuestionSet(): QuestionLine[] {
  return [
    {
      id: "q1",
      video: fixtureVideoName(0),
      question: "Where does the ball roll?",
      format: "mc",
      options: { A: "The ball rolls down the ramp.", B: "It flies away.", C: "It melts." },
      answer: "A",
      category: "Step Sequencing",
      granularity: "coarse",
    },
    {
      id: "q2",
      video: fixtureVideoName(0),
      question: "What colour is the ramp under the ball?",
      format: "mc",
      options: { A: "Blue.", B: "The ramp under the ball is green.", C: "Red." },
      answer: "C",
      category: "Object Attribute Recognition",
      granularity: "fine",
    },
    {
      id: "q3",
      video: fixtureVideoName(1),
      question: "What happens after the ball stops?",
      format: "mc",
      options: { A: "Nothing moves.", B: "The ball stops and a hand picks the ball up." },
      answer: "B",
      category: "Future Step Prediction",
      granularity: "coarse",
    },
    {
      id: "q4",
      video: fixtureVideoName(1),
      question: "What does the ball do on the ramp?",
      format: "open",
      answer: "The ball rolls down the ramp.",
      category: "Step Sequencing",
      granularity: "coarse",
    },
  ];
}

export const questionSetBytes = (lines: readonly unknown[] = smallQuestionSet()) => jsonlBytes(...lines);
