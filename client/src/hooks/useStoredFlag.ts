/*
 * A yes/no setting kept in the browser (localStorage when allowed, memory otherwise), for
 * components: [value, set].
 */
import { useCallback, useState } from 'react';
import { browserStorage, type KeyValue } from '../lib/storage';

const shared = browserStorage();

export function useStoredFlag(key: string, storage: KeyValue = shared): [boolean, (on: boolean) => void] {
  const [value, setValue] = useState(() => storage.get(key) === '1');
  const set = useCallback(
    (on: boolean) => {
      storage.set(key, on ? '1' : null);
      setValue(on);
    },
    [key, storage],
  );
  return [value, set];
}
