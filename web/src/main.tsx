import '@fontsource-variable/inter/index.css';
import { startApp } from './app/start';

// The browser fetches a font once some text needs it: here the first screen's text comes
// after its code and data, and would show in the fallback font, then move as Inter came.
// Asked for now, Inter is there when the text is.
void document.fonts?.load('1em "Inter Variable"');
void startApp({ prerendered: false });
