// askUser: the agent hands the screen to the person for what only they can do — sign in, solve a
// captcha, choose — and waits for their reply (seed 000 §3.3 AWAITING_USER, "I've done it"); the
// task goes on from what they did. A replay asks again: a sign-in may be needed again.
import { z } from "zod";
import { ANY_COMPUTER, BOTH, defineTool, labelled } from "./tool.ts";

export const askUser = defineTool({
  name: "askUser",
  description:
    "Ask the person to do on the screen what only they can (sign in, solve a captcha, make a choice that is theirs) and wait for their reply. request says what to do, in a sentence or two; the screen may have changed when it returns, so look again.",
  input: z.object({ request: z.string().trim().min(1) }),
  modes: BOTH,
  computers: ANY_COMPUTER,
  label: ({ request }) => labelled("askUser", request),
  async run({ request }, ctx) {
    const reply = await ctx.askPerson(request);
    return { ok: true, data: { reply, note: "The person has acted and replied; the screen may have changed: look again before you act." } };
  },
});
