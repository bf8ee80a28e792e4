/*
 * The sound player from context, and the mute switch as React state.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Sounds } from '../lib/sound';

export const SoundsContext = createContext<Sounds | null>(null);

export function useSounds(): Sounds {
  const sounds = useContext(SoundsContext);
  if (!sounds) throw new Error('useSounds outside SoundsContext');
  return sounds;
}

export function useMuted(): boolean {
  const sounds = useSounds();
  return useSyncExternalStore(sounds.subscribe, sounds.isMuted);
}
