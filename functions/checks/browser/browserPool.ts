// The engine's entry to the browser: one per process (see launchBrowser for why).
export { closeSharedBrowser as closeBrowser, sharedBrowser as getBrowser } from './launchBrowser';
