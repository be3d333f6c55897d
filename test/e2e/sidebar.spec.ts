// The sidebar tells chats apart, at laptop and phone size (where it is a drawer): each chat's
// title summarised from its first message, a status badge that follows its task ("Needs you"
// standing out), when it last moved; renaming in place by keyboard and deleting after a confirm.
import type { Page } from "@playwright/test";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";
import { SIZES, snapshot } from "./ui-sizes.ts";

// Deleting a chat whose task waits for the person is refused (409), as the test means it to be.
test.use({ allowedConsoleErrors: [/status of 409 \(Conflict\)/] });

for (const size of SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use(size.use);

    /**
     * The chats list as the person reaches it: beside the chat on a laptop, behind "Open chats" on a
     * phone, and on a laptop too while a task's screen has the stage.
     */
    const sidebar = async (page: Page) => {
      const shown = page.getByRole("navigation", { name: "Chats" }).filter({ visible: true });
      if ((await shown.count()) === 0) await page.getByRole("button", { name: "Open chats" }).click();
      return shown;
    };

    test("chats show their status and time, and can be renamed and deleted", async ({ chat, model, pages, page }) => {
      model.script(
        { ...act("needs_user", { answer: "Sign in, then tell me." }, "Waiting for you"), delayMs: 4000 },
        act("done", { answer: "A form with a button." }, "Finished"),
      );
      await chat.open();
      await chat.send("Please can you sign in to the form page. Then wait for me.", pages.url("form.html"));
      await expect(chat.card().root).toHaveAttribute("data-status", "running");

      let nav = await sidebar(page);
      const waiting = nav.getByTestId("session-row").filter({ has: page.getByRole("link", { name: "sign in to the form page" }) });
      await expect(waiting.getByTestId("session-status")).toHaveText("Running");
      await expect(waiting.getByTestId("session-status")).toHaveText("Needs you");
      await expect(waiting.getByTestId("session-status")).toHaveAttribute("data-status", "needs_you");
      await expect(waiting.locator("time")).toHaveText("now");
      await expect(waiting.getByRole("link")).toHaveAccessibleDescription(/Needs you/);

      // A second chat, which finishes: the newest first, each with its own status.
      await nav.getByRole("button", { name: "New chat" }).click();
      await chat.send("what is on the form page?", pages.url("form.html"));
      await expect(chat.card().answer).toHaveText("A form with a button.");
      nav = await sidebar(page);
      await expect(nav.getByRole("link")).toHaveText(["what is on the form page?", "sign in to the form page"]);
      await expect(nav.getByTestId("session-status")).toHaveText(["Done", "Needs you"]);
      await snapshot(page, `sidebar-${size.name}`);

      // Rename by keyboard: Enter saves; Escape cancels and leaves the drawer open.
      await nav.getByRole("button", { name: "Rename “sign in to the form page”" }).click();
      const field = nav.getByRole("textbox", { name: "Chat title" });
      await expect(field).toBeFocused();
      await expect(field).toHaveValue("sign in to the form page");
      await field.fill("Form sign-in");
      await field.press("Enter");
      await expect(nav.getByRole("link", { name: "Form sign-in" })).toBeFocused();
      await nav.getByRole("button", { name: "Rename “Form sign-in”" }).press("Enter");
      await field.fill("Something else");
      await field.press("Escape");
      await expect(field).toBeHidden();
      await expect(nav.getByRole("button", { name: "Rename “Form sign-in”" })).toBeFocused();
      await expect(nav.getByRole("link")).toHaveText(["what is on the form page?", "Form sign-in"]);
      await page.reload();
      nav = await sidebar(page);
      await expect(nav.getByRole("link")).toHaveText(["what is on the form page?", "Form sign-in"]);

      // Delete asks first; a chat whose task waits for the person is refused with a reason.
      await nav.getByRole("button", { name: "Delete “Form sign-in”" }).click();
      const confirm = nav.getByRole("group", { name: "Delete this chat and everything in it?" });
      await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expect(nav.getByRole("alert")).toHaveText("Stop its task first, then delete the chat.");
      await expect(nav.getByRole("link")).toHaveCount(2);

      await nav.getByRole("button", { name: "Delete “what is on the form page?”" }).click();
      await confirm.getByRole("button", { name: "Cancel" }).press("Escape");
      await expect(confirm).toBeHidden();
      await nav.getByRole("button", { name: "Delete “what is on the form page?”" }).click();
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expect(nav.getByRole("link")).toHaveText(["Form sign-in"]);
      await expect(nav.getByRole("button", { name: "New chat" })).toBeFocused();
      const { json } = await chat.app.api<{ sessions: { title: string }[] }>("GET", "/api/sessions");
      expect(json.sessions.map((s) => s.title)).toEqual(["Form sign-in"]);
    });
  });
}
