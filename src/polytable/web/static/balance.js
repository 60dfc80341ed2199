// The designer's "Check balance": the report of `polytable analyse` for the design being made. The server plays
// the grid (the design itself and each rulebook variant its template carries, greedy in every seat, and the
// skill ladder random < greedy), this panel shows its progress, then the key figures of every configuration
// with their 95% intervals, the figures, why a variant was left out, and links to the whole report and its
// JSON. A module of its own so the designer's page only places it.
import { h, api } from "./dom.js";
import { t, tOr, tError } from "./i18n.js";

const METRICS = [
  "Balance",
  "AdvantageP1",
  "FirstPlayerWins",
  "Drawishness",
  "Rounds",
  "WinningMargin",
  "LeadChanges",
  "Comebacks",
  "DecidedInLastRound",
];

const num = (x) => (x === null || x === undefined ? "-" : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));

/** "0.52 (0.45-0.59)": a figure with its interval. */
function withInterval(e) {
  if (!e || e.value === null || e.value === undefined) return "-";
  return e.ci95 ? `${num(e.value)} (${num(e.ci95[0])}-${num(e.ci95[1])})` : num(e.value);
}

/** The report of a finished check ``r`` (job ``job``): its grid of figures, the skill ladder, the variants
 * left out, the figures and the links to the whole report. */
function reportParts(job, r) {
  const configs = r.configurations;
  const head = h(
    "tr",
    {},
    h("th", {}, ""),
    configs.map((c) => h("th", {}, c.label)),
  );
  const rows = METRICS.filter((m) => configs.some((c) => c.metrics[m])).map((m) =>
    h(
      "tr",
      {},
      h("th", { title: t(`ds.m.${m}.help`) }, t(`ds.m.${m}`)),
      configs.map((c) => h("td", {}, withInterval(c.metrics[m]))),
    ),
  );
  const parts = [
    h("p", {}, t("ds.balanceGrid", { ai: tOr(`ai.${r.ai}.named`, r.ai), n: configs.length })),
    h("div", { class: "scroll" }, h("table", { class: "ds-metrics" }, head, rows)),
  ];
  if (r.ladder) parts.push(ladderLine(r.ladder.pairs[0]));
  for (const x of r.left_out) {
    parts.push(h("p", { class: "ds-left-out" }, t("ds.balanceLeftOut", { variant: x.variant, why: tError(x) })));
  }
  for (const [k, svg] of Object.entries(r.figures)) {
    parts.push(
      h("img", {
        class: "ds-figure",
        alt: t(`ds.fig.${k}`),
        src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`,
      }),
    );
  }
  const base = `/api/formfinity/balance/${job}`;
  parts.push(
    h(
      "p",
      { class: "row" },
      h("a", { id: "ds-balance-page", href: `${base}/report.html`, target: "_blank", rel: "noopener" }, [
        t("ds.balancePage"),
      ]),
      " · ",
      h("a", { id: "ds-balance-json", href: `${base}/report.json`, download: "balance-report.json" }, [
        t("ds.balanceJson"),
      ]),
    ),
  );
  return parts;
}

/** The skill ladder's line: how often the stronger AI won and the skill gap, with their intervals. */
function ladderLine(p) {
  return h(
    "p",
    { id: "ds-balance-skill" },
    t("ds.balanceSkill", {
      strong: tOr(`ai.${p.strong}.named`, p.strong),
      weak: tOr(`ai.${p.weak}.named`, p.weak),
      share: withInterval({ value: p.win_share, ci95: p.ci95 }),
      gap: withInterval({ value: p.skill_gap, ci95: p.skill_gap_ci95 }),
    }),
  );
}

/** The panel: {games, bar, out, run}. `check()` must resolve to true when the design is valid;
 * `variantText()` gives the variant file; `games` is the server's {min, max, start} games a check plays. */
export function balancePanel({ check, variantText, games: range }) {
  let typed = String(range.start); // the games asked for, as typed
  const games = h("input", {
    id: "ds-balance-games",
    type: "number",
    min: range.min,
    max: range.max,
    value: range.start,
    "aria-label": t("ds.balanceGames"),
    oninput: (e) => (typed = e.target.value),
  });
  const bar = h("progress", {
    id: "ds-balance-progress",
    max: 1,
    value: 0,
    hidden: true,
    "aria-label": t("ds.balanceProgress"),
  });
  const out = h("div", { id: "ds-balance", "aria-live": "polite" });
  const progress = (done, total) => {
    bar.max = total;
    bar.value = done;
    out.replaceChildren(h("p", {}, t("ds.balanceRunning", { done, n: total })));
  };

  async function run() {
    if (!(await check())) return;
    const started = await api("/api/formfinity/balance", {
      variant_file: variantText(),
      games: Number(typed) || range.start,
    });
    bar.hidden = false;
    progress(0, started.total);
    for (;;) {
      await new Promise((ok) => setTimeout(ok, 500));
      const st = await api(`/api/formfinity/balance/${started.job}`);
      progress(st.done, st.total);
      if (st.state === "done") {
        bar.hidden = true;
        out.replaceChildren(...reportParts(started.job, st.result));
        return;
      }
      if (st.state === "failed") {
        bar.hidden = true;
        throw new Error(st.message);
      }
    }
  }

  return { games, bar, out, run };
}
