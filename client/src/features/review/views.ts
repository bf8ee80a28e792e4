/* The review's views in one chunk (lazy.tsx loads it). */
export { EvalGraph } from './EvalGraph';
export { ReviewPanel } from './ReviewPanel';
