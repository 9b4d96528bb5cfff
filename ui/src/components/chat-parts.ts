// The chat's parts, loaded as a script of their own once the conversation list is drawn. With
// them comes the Markdown pipeline (marked, DOMPurify, highlight.js and its languages): more than
// half of the app's script, which the web view would otherwise read and run before it could
// draw the list.
export { default as ChatHeader } from './ChatHeader.svelte';
export { default as CompareView } from './CompareView.svelte';
export { default as Composer } from './Composer.svelte';
export { default as ImageViewer } from './ImageViewer.svelte';
export { default as ImportedPrompt } from './ImportedPrompt.svelte';
export { default as ReasoningPanel } from './ReasoningPanel.svelte';
export { default as Thread } from './Thread.svelte';
