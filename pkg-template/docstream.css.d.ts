// `docstream/docstream.css` is a stylesheet: import it for its side effect (a bundler
// adds it to the page) or link the file. This declaration lets TypeScript and tools that
// check the package's subpaths resolve it; it exports nothing.
export {};
