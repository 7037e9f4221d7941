/**
 * The errors' old home, kept as a re-export so the modules that import `./errors.js` need no edit:
 * everything lives in src/errors/ (codes, each code's context, `CairnError`, the subclasses by family,
 * `isCairnError`).
 */
export * from './errors/index.js';
