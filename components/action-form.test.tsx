// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ActionResult } from "@/lib/api/action-result";
import { ActionForm, Field } from "./action-form";

/*
 * React resets a form bound to an action once the action returns. After a failure that threw away what the
 * person typed: a wrong password on the sign-in page cleared the email too (issue 38, finding 7). A form that
 * fails keeps its fields' values, except passwords; one that succeeds is still cleared.
 */
afterEach(cleanup);

function renderSignInForm(action: (previous: ActionResult | null, formData: FormData) => Promise<ActionResult>) {
  return render(
    <ActionForm action={action} submitLabel="Sign in">
      <Field label="Email" name="email" type="email" />
      <Field label="Password" name="password" type="password" />
    </ActionForm>,
  );
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

async function submit(email: string, password: string) {
  fireEvent.change(input("Email"), { target: { value: email } });
  fireEvent.change(input("Password"), { target: { value: password } });
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
}

describe("a form bound to a server action", () => {
  it("keeps the email after a failed sign-in and clears the password", async () => {
    const submitted: string[] = [];
    renderSignInForm(async (_previous, formData) => {
      submitted.push(String(formData.get("email")));
      return { ok: false, error: "Wrong email or password." };
    });
    await submit("ada@example.test", "wrong-password");
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).toBe("Wrong email or password."));
    expect(submitted).toEqual(["ada@example.test"]);
    expect(input("Email").value).toBe("ada@example.test");
    expect(input("Password").value).toBe("");

    // A second failure with another email shows that email, not the first.
    await submit("ada@lab.example", "wrong-again");
    await waitFor(() => expect(submitted).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole("button", { name: "Sign in" })).toHaveProperty("disabled", false));
    expect(input("Email").value).toBe("ada@lab.example");
    expect(input("Password").value).toBe("");
  });

  it("clears every field after a success", async () => {
    renderSignInForm(async () => ({ ok: true, message: "Saved." }));
    await submit("ada@example.test", "right-password");
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Saved."));
    expect(input("Email").value).toBe("");
    expect(input("Password").value).toBe("");
  });
});
