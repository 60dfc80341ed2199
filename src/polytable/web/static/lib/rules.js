// A How-to-play page as data, apart from the DOM (rules.js draws it; tests/js/rules.test.mjs checks it): its
// sections and their items in order, each item with the notes it states where the rule is polytable's reading
// rather than the rulebook's words (i18n/readings.json, a flag per item), and the game's words
// (i18n/glossary-<lang>.json). The terminal's `polytable rules` reads the same files (cli/cmd_rules.py).

/**
 * The page of `page` (the key of rules.<page>.*). `text(key)` is the translation of a key or null when it has
 * none; `sections` the section names in order; `readings` the parsed readings.json.
 * Returns {sections: [{id, items: [{key, text, notes: [{note, kind}]}]}], file, readings: [items with notes]}.
 */
export function rulesPage(page, sections, text, readings) {
  const flags = (readings && readings[page]) || { notes: "", items: {} };
  const out = (sections || []).map((id) => {
    const items = [];
    for (let i = 1; i <= 20; i++) {
      const key = `rules.${page}.${id}.${i}`;
      const said = text(key);
      if (said === null) break;
      const notes = Object.entries(flags.items[`${id}.${i}`] || {}).map(([note, kind]) => ({ note, kind }));
      items.push({ key, text: said, notes });
    }
    return { id, items };
  });
  return { sections: out, file: flags.notes, readings: out.flatMap((s) => s.items.filter((i) => i.notes.length)) };
}

/** Every note the page's readings name, once each in page order: [{note, kind}]. */
export function readingNotes(model) {
  const seen = new Map();
  for (const item of model.readings) for (const n of item.notes) if (!seen.has(n.note)) seen.set(n.note, n);
  return [...seen.values()];
}

/** The game's words from a parsed glossary file: [{term, means}] (empty for a game without any). */
export function gameWords(glossary, gameId) {
  return ((glossary && glossary[gameId]) || []).map(({ term, means }) => ({ term, means }));
}
