/** @jest-environment jsdom */
import { focusableIn, trapTarget } from './focusTrap';

function panel() {
  const root = document.createElement('div');
  root.tabIndex = -1;
  root.innerHTML = '<button id="a">A</button><button id="hidden" hidden>H</button><a id="b" href="#">B</a><button id="off" disabled>X</button><button id="c">C</button>';
  document.body.append(root);
  return root;
}

describe('the KeyClips focus trap', () => {
  it('lists the stops Tab reaches', () => {
    const root = panel();
    expect(focusableIn(root).map((el) => el.id)).toEqual(['a', 'b', 'c']);
    root.remove();
  });

  it('wraps from the last stop to the first and back, and brings focus from outside in', () => {
    const root = panel();
    const stops = focusableIn(root);
    const [a, , c] = stops;
    expect(trapTarget(stops, c!, false, root)).toBe(a);
    expect(trapTarget(stops, a!, true, root)).toBe(c);
    expect(trapTarget(stops, root, true, root)).toBe(c);
    expect(trapTarget(stops, a!, false, root)).toBeNull();
    expect(trapTarget(stops, document.body, false, root)).toBe(a);
    expect(trapTarget([], document.body, false, root)).toBe(root);
    root.remove();
  });
});
