/*
 * The settings for views: the controller (provided by the app), the settings themselves, the
 * board's appearance with its piece set loaded when chosen, and what the settings change outside
 * any page (the site's theme, the board's size, the sounds' volume).
 */
import { createElement, useEffect, useMemo, useState } from 'react';
import type { PieceRenderObject } from 'react-chessboard';
import type { BoardAppearance } from '../../components/Board';
import { controllerContext, useSelect } from '../../hooks/useSelect';
import type { Sounds } from '../../lib/sound';
import { ANIMATION_MS, BOARD_COLORS, type PieceSetId, type Settings, type SettingsController } from './controller';
import { loadPieceSet, PIECE_SET_INFO, type PieceImages } from './pieces';

const context = controllerContext<SettingsController>('SettingsController');

export const SettingsProvider = context.Provider;
export const useSettingsController = context.use;

/** Every setting (the defaults filled in). */
export function useSettings(): Settings {
  return useSelect(context.use(), (s) => s.settings);
}

/** react-chessboard renderers drawing a set's images. */
function renderersOf(id: PieceSetId, images: PieceImages): PieceRenderObject {
  const out: PieceRenderObject = {};
  for (const [code, src] of Object.entries(images)) {
    out[code] = () =>
      createElement('img', {
        src,
        alt: '',
        draggable: false,
        className: 'piece-img',
        'data-piece-set': id,
        title: PIECE_SET_INFO[id].name,
      });
  }
  return out;
}

/** The board's appearance from the settings; a piece set other than the board's own shows once
 * its images have loaded (the board's own pieces until then). */
export function useBoardAppearance(): BoardAppearance {
  const s = useSettings();
  const [set, setSet] = useState<{ id: PieceSetId; pieces: PieceRenderObject | undefined } | null>(null);
  useEffect(() => {
    let live = true;
    loadPieceSet(s.pieces).then(
      (images) => {
        if (live) setSet({ id: s.pieces, pieces: images ? renderersOf(s.pieces, images) : undefined });
      },
      () => undefined, // the board's own pieces stay
    );
    return () => {
      live = false;
    };
  }, [s.pieces]);
  const pieces = set && set.id === s.pieces ? set.pieces : undefined;
  const colors = BOARD_COLORS[s.board];
  return useMemo(
    () => ({
      pieces,
      lightSquare: colors.light,
      darkSquare: colors.dark,
      coordinates: s.coordinates,
      animationMs: ANIMATION_MS[s.animation],
      autoQueen: s.auto_queen === 'always',
    }),
    [pieces, colors, s.coordinates, s.animation, s.auto_queen],
  );
}

/** Applies what the settings change outside the board: the site's theme (data-theme on the
 * page's root; none follows the system's preference), the board's size (--board-scale) and the
 * sounds' volume. */
export function useApplySettings(sounds: Sounds): void {
  const { theme, board_size, volume } = useSettings();
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    document.documentElement.style.setProperty('--board-scale', String(board_size / 100));
  }, [board_size]);
  useEffect(() => sounds.setVolume(volume / 100), [sounds, volume]);
}
