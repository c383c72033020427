import { storeContext } from '../shared/storeContext';
import type { EditorStore } from './editorStore';

const editor = storeContext<EditorStore>('EditorStoreContext', 'useEditorStore');

/** The open transcript's EditorStore, for the components inside the editor. */
export const EditorStoreContext = editor.Context;
export const useEditorStore = editor.useStore;
/** A value derived from the editor state; re-renders only when it changes (Object.is). */
export const useEditor = editor.useValue;
