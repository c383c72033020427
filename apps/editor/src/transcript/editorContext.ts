import { createContext, useContext } from 'react';
import { useStoreValue } from '@wordcut/ui';
import type { EditorStore } from './editorStore';
import type { EditorSnapshot } from './editorSnapshot';

/** The open transcript's EditorStore, for the components inside the editor. */
export const EditorStoreContext = createContext<EditorStore | null>(null);

export function useEditorStore(): EditorStore {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error('useEditorStore: no EditorStoreContext provider above this component');
  return store;
}

/** A value derived from the editor state; re-renders only when it changes (Object.is). */
export function useEditor<T>(select: (snapshot: EditorSnapshot) => T): T {
  const store = useEditorStore();
  return useStoreValue({ get: store.getSnapshot, subscribe: store.subscribe }, select);
}
