import t from 'tap';
import { Writable } from 'node:stream';
import { BatchReport } from '../../../cli/convert/report.js';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

const image = (name: string) => ({ input: name, label: name, output: name.replace(/\.\w+$/, '.svg') });

t.test('not on a terminal: one plain line per file, then the summary with codes', async (t) => {
  const out = sink();
  const report = new BatchReport(out.stream, false);
  report.start(
    2,
    [{ label: 'notes.txt', reason: 'not_an_image' }],
    [{ label: 'gone.png', message: 'cannot read gone.png: no such file or folder' }],
  );
  report.result(image('a.png'), { status: 'converted', ms: 12.4, bytes: 900 });
  report.result(image('b.png'), { status: 'failed', code: 'unreadable_file', message: 'The PNG ends early.' });
  t.equal(report.finish(), 1, 'exit 1 when any failed');
  const lines = out.text().trimEnd().split('\n');
  t.same(lines.slice(0, 4), [
    'failed gone.png: cannot read gone.png: no such file or folder (missing_file)',
    'skipped notes.txt: not an image',
    'converted a.png -> a.svg (12 ms, 900 bytes)',
    'failed b.png: The PNG ends early. (unreadable_file)',
  ]);
  t.match(lines[4], /^converted 1, skipped 1 \(not an image 1\), failed 2 \(missing_file 1, unreadable_file 1\) in \d+\.\d s$/);
  t.notMatch(out.text(), /\r|\u001b/, 'nothing redrawn');
});

t.test('on a terminal: a redrawn bar with count, rate and time left; failures printed above it', async (t) => {
  const out = sink();
  const report = new BatchReport(out.stream, true);
  report.start(3, [], []);
  report.result(image('a.png'), { status: 'converted', ms: 5, bytes: 10 });
  report.result(image('b.png'), { status: 'failed', code: 'megapixels_exceeded', message: 'Too big.' });
  t.match(out.text(), /\r\u001b\[K\[#{8}\.{16}\] 1\/3 {2}[\d.]+\/s {2}\d+:\d\d left/);
  t.match(out.text(), /\r\u001b\[Kfailed b\.png: Too big\. \(megapixels_exceeded\)\n/);
  t.match(out.text(), /2\/3 .* 1 failed/);
  report.result(image('c.png'), { status: 'converted', ms: 5, bytes: 10 });
  t.equal(report.finish(), 1);
  t.match(out.text(), /\r\u001b\[Kconverted 2, skipped 0, failed 1 \(megapixels_exceeded 1\) in [\d.]+ s\n$/);
});
