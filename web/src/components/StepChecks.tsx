// What the agent checked at a step: whether the action had an effect and what showed it (the
// screen, a download, a new tab…), how often a click was retried, and how the click's pointer was
// verified, with each check's annotated capture beside its raw one. Presentational: it shows the
// step it is given.
import { formatUsd, type ProgressStep } from "../protocol.ts";
import { t } from "../i18n.ts";
import { meantNoChange } from "../state/step-words.ts";

export function StepChecks({ step }: { step: ProgressStep }) {
  const { effect, verification } = step;
  if (!effect && !verification) return null;
  const looks = verification?.attempts.filter((a) => a.method === "model") ?? [];
  const verifiedBy = !verification
    ? null
    : !verification.verified
      ? t.notClicked
      : looks.length > 0
        ? t.modelLooks(looks.length)
        : t.hitTest;
  return (
    <section aria-label={t.checks} data-testid="step-checks" className="rounded-lg bg-zinc-50 px-3 py-2 text-xs text-zinc-700">
      <ul className="space-y-1">
        {effect && (
          <li>
            {effect.changed
              ? `✓ ${effect.retries > 0 ? t.changedAfter(effect.retries) : effect.seen ? t.effectSeen[effect.seen] : t.changed}`
              : meantNoChange(step)
                ? t.unchangedAsMeant
                : `✗ ${t.unchanged}`}
            {effect.note && <span className="text-zinc-500"> — {effect.note}</span>}
          </li>
        )}
        {verifiedBy && <li>{`${verification?.verified ? "✓" : "✗"} ${verifiedBy}`}</li>}
      </ul>
      {looks.length > 0 && (
        <ol className="mt-2 flex flex-wrap gap-2">
          {looks.map((look, i) => (
            <li key={look.annotated?.id ?? i} className="w-36">
              {look.annotated && (
                <a href={look.annotated.url} target="_blank" rel="noreferrer" className="block focus-visible:outline-2 focus-visible:outline-indigo-500">
                  <img
                    src={look.annotated.url}
                    alt={t.checkShot(i + 1)}
                    className="aspect-[16/10] w-full rounded border border-zinc-300 object-cover"
                    loading="lazy"
                  />
                </a>
              )}
              <span className="mt-0.5 block text-zinc-500">
                {i + 1}. {look.on_target ? t.onTarget : t.offTarget(look.dx ?? 0, look.dy ?? 0)}
                {look.frame && (
                  <>
                    {" · "}
                    <a href={look.frame.url} target="_blank" rel="noreferrer" className="underline hover:text-zinc-800">
                      {t.rawShot}
                    </a>
                  </>
                )}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** What a step cost, for developers: the model's tokens, their price when the model has one, and the step's time; nothing it did not spend. */
export function StepCost({ step }: { step: ProgressStep }) {
  const { input_tokens: input, output_tokens: output } = step.usage;
  const spent = input + output > 0;
  const parts = [spent ? t.stepCost(input, output) : null, spent ? formatUsd(step.cost_usd) : null, step.timings ? t.stepTime(step.timings.total) : null];
  const shown = parts.filter((part): part is string => part !== null);
  if (shown.length === 0) return null;
  return (
    <p data-testid="step-cost" className="px-1 text-xs text-zinc-600">
      <span className="sr-only">{t.stepCostLabel}: </span>
      <span className="font-mono">{[step.planner, ...shown].filter(Boolean).join(" · ")}</span>
    </p>
  );
}
