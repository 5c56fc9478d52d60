/**
 * The agreement page's switch for score values implied by an absent category (a presence-first queue
 * stores the absent value for every score of a category the reviewer marks absent). Off by default:
 * those values are left out and presence is compared through the presence targets. A checkbox of the
 * page's GET form: checked sends `implied=include`, unchecked sends nothing (the default, exclude).
 */
export function ImpliedValuesSwitch({ included }: { included: boolean }) {
  return (
    <label
      className="flex items-center gap-2 self-end py-1.5"
      title="A presence-first queue stores the absent value for every score of a category the reviewer marks absent. Off: those values are not counted as judgments of the scores; presence is compared through the presence targets."
    >
      <input type="checkbox" name="implied" value="include" defaultChecked={included} data-testid="implied-switch" />
      <span>Include values implied by an absent category</span>
    </label>
  );
}
