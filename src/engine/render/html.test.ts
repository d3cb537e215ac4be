import { describe, expect, it } from 'vitest';
import { html, raw } from './html';

describe('the html template', () => {
  it('escapes every interpolated value, in text and in attributes; nested templates and raw markup pass as they are', () => {
    const name = `<img src=x onerror="alert('1')">&\``;
    const out = html`<p title="${name}">${name}</p>${html`<b>${'a<b'}</b>`}${raw('<i>ok</i>')}`;
    expect(out.text).toBe('<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;">&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;</p><b>a&lt;b</b><i>ok</i>');
  });

  it('joins arrays, renders numbers as text, and nothing for null, undefined and false', () => {
    expect(html`${[html`<li>${1}</li>`, html`<li>${'<2>'}</li>`]}|${null}${undefined}${false}|${0}`.text).toBe('<li>1</li><li>&lt;2&gt;</li>||0');
  });
});
