/**
 * Runs in the page before the client (addInitScript): records every frame's duration with requestAnimationFrame
 * and every long task (> 50 ms main-thread work) with PerformanceObserver, between mark() and take().
 */
export const PROBE = `
(() => {
  const probe = { frames: [], longTasks: [], on: true, last: 0 }; // on from page start: the first take() covers loading
  const tick = (t) => {
    if (probe.on && probe.last) probe.frames.push(t - probe.last);
    probe.last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  try {
    new PerformanceObserver((list) => {
      if (probe.on) for (const e of list.getEntries()) probe.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  } catch {}
  window.__probe = {
    mark() { probe.frames = []; probe.longTasks = []; probe.on = true; probe.last = 0; },
    take() { probe.on = false; return { frames: probe.frames.slice(), longTasks: probe.longTasks.slice() }; },
  };
})();
`;
