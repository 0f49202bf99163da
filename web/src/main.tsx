import '@fontsource-variable/inter/index.css';
import { startApp } from './app/start';

void startApp({ prerendered: false });
