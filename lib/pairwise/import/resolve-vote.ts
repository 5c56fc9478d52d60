/**
 * A source vote made into a pair of the project and a vote on it: its videos matched to the project's (by sha256, else
 * a path in the project, else a file name only one video has), its prompt and generators taken from the row or, where
 * the row gives none, from the matched videos, and the rules every import keeps: two different videos, one prompt
 * unless the import says its pairs cross prompts, an aspect that is a usable id (and one the import accepts).
 * A video the project does not hold is kept by its name (the pair outlives its videos the same way).
 */
import { createHash } from "node:crypto";
import { videoMatcher, type MatchableVideo } from "../../import/video-matcher";
import { aspectIdSchema } from "../aspects";
import type { Strength, Verdict } from "../verdicts";
import type { PairImportOptions, Refusal, RefusalReason, SourceVote } from "./import.types";

export interface ProjectVideo extends MatchableVideo {
  sha256: string;
  prompt: string | null;
  model: string | null;
}

export interface ResolvedPair {
  pairKey: string;
  prompt: string;
  generatorA: string;
  generatorB: string;
  nameA: string;
  nameB: string;
  videoAId: string | null;
  videoBId: string | null;
}

export interface ResolvedVote {
  pair: ResolvedPair;
  aspect: string;
  rater: string;
  verdict: Verdict;
  strength: Strength;
}

/** The most aspects one pair set holds (aspectListSchema's limit). */
const MAX_ASPECTS = 20;
/** Keys longer than this are stored as their hash: a pair named by two long paths still has a short key. */
const MAX_PAIR_KEY_CHARS = 300;

function storedPairKey(key: string): string {
  return key.length <= MAX_PAIR_KEY_CHARS ? key : `h:${createHash("sha256").update(key).digest("hex")}`;
}

class Refused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** The resolver of one import: the project's videos indexed once, and the aspects accepted so far. */
export function voteResolver(videos: readonly ProjectVideo[], options: PairImportOptions) {
  const byName = videoMatcher(videos, { by: ["path", "file name"] });
  const bySha = new Map<string, ProjectVideo | null>();
  for (const video of videos) bySha.set(video.sha256, bySha.has(video.sha256) ? null : video);
  const accepted = options.aspects ? new Set(options.aspects) : null;
  const aspects = new Map<string, { levels: 4 | 5 }>();

  const find = (name: string | null, sha256: string | null): ProjectVideo | null => {
    if (sha256 && bySha.get(sha256)) return bySha.get(sha256)!;
    if (!name) return null;
    const match = byName(name);
    return "video" in match ? match.video : null;
  };

  const checkAspect = (aspect: string, strength: Strength) => {
    if (!aspectIdSchema.safeParse(aspect).success)
      throw new Refused("unknown_aspect", `"${aspect}" is not a usable aspect id (a lower-case slug)`);
    if (accepted && !accepted.has(aspect))
      throw new Refused("unknown_aspect", `"${aspect}" is not one of the import's aspects`);
    const known = aspects.get(aspect);
    if (!known && aspects.size >= MAX_ASPECTS)
      throw new Refused("too_many_aspects", `a pair set holds at most ${MAX_ASPECTS} aspects`);
    if (!known) aspects.set(aspect, { levels: strength === 2 ? 5 : 4 });
    else if (strength === 2) known.levels = 5;
  };

  function resolve(vote: SourceVote, interpret: (what: string) => void): ResolvedVote {
    checkAspect(vote.aspect, vote.strength);
    const a = find(vote.videoA, vote.sha256A);
    const b = find(vote.videoB, vote.sha256B);
    const sameName = vote.videoA !== null && vote.videoA === vote.videoB;
    const sameSha = vote.sha256A !== null && vote.sha256A === vote.sha256B;
    if ((a && b && a.id === b.id) || sameName || sameSha)
      throw new Refused("same_video", "video A and video B are the same video");
    if (a?.prompt && b?.prompt && a.prompt !== b.prompt && !options.crossPrompt)
      throw new Refused("two_prompts", "the two videos have different prompts (the import does not say crossPrompt)");
    let prompt = vote.prompt;
    if (prompt === null && (a?.prompt || b?.prompt)) {
      prompt = a?.prompt ?? b!.prompt!;
      interpret("prompt read from the matched video");
    }
    if (prompt === null && vote.promptFallback) {
      prompt = vote.promptFallback;
      interpret("no prompt: the pair's prompt is its dataset and clip number");
    }
    if (prompt === null) throw new Refused("no_prompt", "no prompt: the row gives none and no matched video has one");
    const generatorA = vote.generatorA ?? a?.model ?? null;
    const generatorB = vote.generatorB ?? b?.model ?? null;
    if (generatorA === null || generatorB === null)
      throw new Refused("no_generator", "no generator: the row names none and no matched video has one");
    if ((vote.videoA || vote.sha256A) && !a) interpret("video A not in the project: kept by name");
    if ((vote.videoB || vote.sha256B) && !b) interpret("video B not in the project: kept by name");
    return {
      pair: {
        pairKey: storedPairKey(vote.pairKey),
        prompt,
        generatorA,
        generatorB,
        nameA: a?.relativePath ?? vote.videoA ?? vote.sha256A ?? generatorA,
        nameB: b?.relativePath ?? vote.videoB ?? vote.sha256B ?? generatorB,
        videoAId: a?.id ?? null,
        videoBId: b?.id ?? null,
      },
      aspect: vote.aspect,
      rater: vote.rater,
      verdict: vote.verdict,
      strength: vote.strength,
    };
  }

  return {
    /** The vote on its pair, or why it is refused. */
    resolve(vote: SourceVote, interpret: (what: string) => void): ResolvedVote | Refusal {
      try {
        return resolve(vote, interpret);
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        return { row: vote.row, reason: error.reason, message: error.message, rater: vote.rater };
      }
    },
    /** The aspects accepted, in the order first met (or the import's list), with five levels where a vote was strong. */
    aspects(): { id: string; levels: 4 | 5 }[] {
      const ids = options.aspects ?? [...aspects.keys()];
      return ids.map((id) => ({ id, levels: aspects.get(id)?.levels ?? 4 }));
    },
  };
}
