// Package chromeproc manages the Chromium processes of a renderer: it
// launches one in a process group of its own with a private user data
// directory, kills a browser's whole process tree, sweeps the leftovers of
// programs that died without cleaning up, reads the memory of a process
// tree, and watches the renderer processes' memory while pages run,
// killing one over its bound.
//
// It knows processes, not pages: what a killed renderer means for the page
// it ran is the browser package's concern.
package chromeproc
