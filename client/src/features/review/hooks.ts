/*
 * The review controller for views: provided by the app; useGameReview holds a game's analysis
 * while the page shows the game ended.
 */
import { useEffect } from 'react';
import { controllerContext, useSelect } from '../../hooks/useSelect';
import type { ReviewController } from './controller';
import type { GameReview } from './state';

const context = controllerContext<ReviewController>('ReviewController');

export const ReviewProvider = context.Provider;
export const useReview = context.use;

/** The game's analysis as the client has it; read (and followed) while `ended`. */
export function useGameReview(id: string, ended: boolean): GameReview | undefined {
  const review = useReview();
  useEffect(() => (ended ? review.hold(id) : undefined), [review, id, ended]);
  return useSelect(review, (s) => s.games[id]);
}
