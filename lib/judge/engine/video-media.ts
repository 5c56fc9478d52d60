/** The engine's entry to the input modes (lib/judge/input-modes/): the most frames a step of a run may choose. */
export { frameLimitOf } from "../input-modes/plan-request-media";
