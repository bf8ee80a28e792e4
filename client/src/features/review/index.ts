/*
 * The game review (public): the computer analysis of a finished game on its page (the panel,
 * the evaluation graph, the judged moves and their arrows), and the controller with its
 * provider for the app.
 */
export { EvalGraph, ReviewPanel } from './lazy';
export { ReviewController } from './controller';
export { ReviewProvider, useGameReview, useReview } from './hooks';
export { JUDGEMENT_GLYPH, judgedMove, judgementsByPly, reviewKey } from './review';
export type { GameReview } from './state';
