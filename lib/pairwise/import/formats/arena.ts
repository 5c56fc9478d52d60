/**
 * Arena battle files as FastChat and GenAI-Arena write them (arena_elo/elo_rating/clean_battle_data.py): a JSON array
 * (or JSON Lines) of `{question_id, model_a, model_b, winner, judge, anony, tstamp}` with `winner` one of "model_a",
 * "model_b", "tie", "tie (bothbad)". A battle names its videos and prompt only through columns the import maps
 * (`mapping: {video_a, video_b, prompt}`); without videos each battle is its own pair (its key is its row), and without
 * a prompt column its `question_id` (else `battle:<row>`) stands for the prompt, so the bootstrap resamples battles.
 * "tie" is read as tie_good (both acceptable: the arena's tie button beside "both are bad") and counted as read so.
 * The vote's rater is the battle's `judge` (an arena user). Battles name no aspect: they go to `aspect` ("overall").
 */
import type { Verdict } from "../../verdicts";
import { readingOf, requiredCell, RowRefusal, textCell, type PairwiseImportFormat } from "./format";

const WINNERS: Record<string, Verdict> = { model_a: "A", model_b: "B", tie: "tie_good", "tie (bothbad)": "tie_bad" };

export const arenaFormat: PairwiseImportFormat = {
  id: "arena",
  label: "Arena battles (FastChat / GenAI-Arena, JSON or JSON Lines)",
  reader: "json",
  columns: { generator_a: "model_a", generator_b: "model_b", verdict: "winner", rater: "judge" },
  readRecord({ row, fields }, { column, options }) {
    return readingOf(row, (interpret) => {
      const winner = requiredCell(fields, column("verdict"));
      const verdict = Object.hasOwn(WINNERS, winner) ? WINNERS[winner]! : null;
      if (!verdict) throw new RowRefusal("unknown_verdict", `"${winner}" is not an arena winner`);
      if (winner === "tie") interpret('"tie" read as tie_good (both acceptable)');
      const videoA = textCell(fields, column("video_a"));
      const videoB = textCell(fields, column("video_b"));
      let prompt = textCell(fields, column("prompt"));
      if (prompt === null) {
        const question = textCell(fields, "question_id");
        prompt = question === null ? `battle:${row}` : `question:${question}`;
        interpret("no prompt column: the battle's question_id (else its row) stands for its prompt");
      }
      const pairKey = videoA || videoB ? JSON.stringify(["v", videoA, videoB]) : JSON.stringify(["r", row]);
      return [
        {
          row,
          pairKey,
          prompt,
          generatorA: requiredCell(fields, column("generator_a")),
          generatorB: requiredCell(fields, column("generator_b")),
          videoA,
          videoB,
          sha256A: null,
          sha256B: null,
          aspect: options.aspect ?? "overall",
          rater: requiredCell(fields, column("rater")),
          verdict,
          strength: 1,
        },
      ];
    });
  },
};
