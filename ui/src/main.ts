import { mount } from 'svelte';

import App from './App.svelte';
import './app.css';
import { warmMarkdown } from './lib/markdown';
import { applyTheme, rememberedTheme } from './lib/theme';

applyTheme(rememberedTheme());

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

const app = mount(App, { target });

// Once the window has settled after start (see warmMarkdown).
if ('requestIdleCallback' in window) window.requestIdleCallback(() => warmMarkdown(), { timeout: 3000 });
else setTimeout(() => warmMarkdown(), 1500);

export default app;
