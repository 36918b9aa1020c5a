import t from 'tap';
import { MAX_FILES_PER_DROP, filesFromDataTransfer, filesFromList, isAcceptedImage, svgNameFor } from '../../../app/renderer/files.js';

type Entry = {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (ok: (f: File) => void) => void;
  createReader?: () => { readEntries: (ok: (e: Entry[]) => void) => void };
};

function fileEntry(name: string): Entry {
  return { isFile: true, isDirectory: false, name, file: (ok) => ok(new File([name], name)) };
}

/** A folder whose reader hands out entries in chunks of two, as Chromium does in chunks of 100. */
function folder(name: string, children: Entry[]): Entry {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader: () => {
      let offset = 0;
      return {
        readEntries: (ok) => {
          const chunk = children.slice(offset, offset + 2);
          offset += chunk.length;
          ok(chunk);
        },
      };
    },
  };
}

const item = (entry: Entry | null, file: File | null = null) => ({ kind: 'file', webkitGetAsEntry: () => entry, getAsFile: () => file });

t.test('dropped folders are walked in name order; non-images and hidden folders are skipped', async (t) => {
  const tree = folder('logos', [
    fileEntry('b10.png'),
    fileEntry('readme.txt'),
    folder('.git', [fileEntry('x.png')]),
    fileEntry('b2.JPG'),
    folder('dark', [fileEntry('a.webp'), fileEntry('b.avif'), fileEntry('c.bmp')]),
  ]);
  const files = await filesFromDataTransfer([item(tree), item(fileEntry('loose.png'))]);
  t.same(
    files.map((f) => f.path),
    ['logos/b2.JPG', 'logos/b10.png', 'logos/dark/a.webp', 'logos/dark/b.avif', 'logos/dark/c.bmp', 'loose.png'],
  );
  t.equal(files[0].name, 'b2.JPG');
});

t.test('items without entries fall back to getAsFile, then to the files list', async (t) => {
  const png = new File(['x'], 'a.png', { type: 'image/png' });
  t.same(
    (await filesFromDataTransfer([item(null, png)])).map((f) => f.path),
    ['a.png'],
  );
  t.same(
    (await filesFromDataTransfer([], [png])).map((f) => f.path),
    ['a.png'],
  );
  t.same(await filesFromDataTransfer([{ kind: 'string', getAsFile: () => null }]), []);
});

t.test('a huge drop is capped', async (t) => {
  const many = Array.from({ length: MAX_FILES_PER_DROP + 5 }, (_, i) => fileEntry(`f${i}.png`));
  t.equal((await filesFromDataTransfer([item(folder('big', many))])).length, MAX_FILES_PER_DROP);
});

t.test('picked files keep their folder-relative path', async (t) => {
  const file = new File(['x'], 'a.png');
  Object.defineProperty(file, 'webkitRelativePath', { value: 'set/a.png' });
  const files = filesFromList([file, new File(['y'], 'notes.pdf', { type: 'application/pdf' })]);
  t.same(
    files.map((f) => f.path),
    ['set/a.png'],
  );
});

t.test('accepted types and output names', async (t) => {
  t.ok(isAcceptedImage('x.bin', 'image/png'), 'the MIME type is enough');
  t.notOk(isAcceptedImage('x.gif', 'image/gif'));
  t.notOk(isAcceptedImage('x.svg'));
  t.equal(svgNameFor('logos/acme.final.png'), 'acme.final.svg');
  t.equal(svgNameFor('C:\\art\\mark.jpeg'), 'mark.svg');
  t.equal(svgNameFor('.png'), 'image.svg');
});
