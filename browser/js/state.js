// The state the waiting loop polls.
(() => {
  const g = window.__gleaner || { lastMutation: 0, mutations: 0, timers: 0 };
  const se = document.scrollingElement || document.documentElement;
  return {
    quiet: performance.now() - g.lastMutation,
    mutations: g.mutations,
    timers: g.timers,
    height: se ? se.scrollHeight : 0,
    viewport: window.innerHeight,
    ready: document.readyState,
  };
})()
