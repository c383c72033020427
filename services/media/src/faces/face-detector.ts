import type { FaceBox } from '@wordcut/edit-list';
import { dirname, join } from 'node:path';

/** Finds faces in one RGB frame; FaceApiDetector is the real one. */
export interface FaceDetector {
  /** faces in fractions of the frame (0..1 from the top left) */
  detect(rgb: Uint8Array, width: number, height: number): Promise<FaceBox[]>;
}

/** The detector's input side (it scales frames to this), a multiple of 32: 320 finds faces down to about 1/15 of the frame. */
export const FACE_INPUT_SIZE = 320;
/** Faces below this confidence are not reported. */
export const FACE_MIN_SCORE = 0.4;

type FaceApi = typeof import('@vladmandic/face-api/dist/face-api.node-wasm.js');
type Tf = typeof import('@tensorflow/tfjs');

/**
 * face-api's Tiny Face Detector on TensorFlow.js's WebAssembly backend. Its weights ship inside the
 * `@vladmandic/face-api` package and the WebAssembly inside `@tensorflow/tfjs-backend-wasm`: both are
 * read from node_modules, nothing is downloaded. Loaded once per process, on first use.
 */
export class FaceApiDetector implements FaceDetector {
  private loaded: Promise<{ faceapi: FaceApi; tf: Tf }> | null = null;

  private load(): Promise<{ faceapi: FaceApi; tf: Tf }> {
    this.loaded ??= (async () => {
      const tf = (await import('@tensorflow/tfjs')) as Tf;
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      // the .wasm files beside the package's code, read from disk (not fetched)
      wasm.setWasmPaths(`${join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist')}/`, false);
      await tf.setBackend('wasm');
      await tf.ready();
      const faceapi = (await import('@vladmandic/face-api/dist/face-api.node-wasm.js')) as FaceApi;
      await faceapi.nets.tinyFaceDetector.loadFromDisk(join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model'));
      return { faceapi, tf };
    })();
    return this.loaded;
  }

  async detect(rgb: Uint8Array, width: number, height: number): Promise<FaceBox[]> {
    if (rgb.length !== width * height * 3) throw new RangeError(`a ${width}x${height} RGB frame has ${width * height * 3} bytes, not ${rgb.length}`);
    const { faceapi, tf } = await this.load();
    const tensor = tf.tensor3d(rgb, [height, width, 3], 'int32');
    try {
      const found = await faceapi.detectAllFaces(tensor as never, new faceapi.TinyFaceDetectorOptions({ inputSize: FACE_INPUT_SIZE, scoreThreshold: FACE_MIN_SCORE }));
      return found.map((d) => ({ x: d.box.x / width, y: d.box.y / height, width: d.box.width / width, height: d.box.height / height, score: d.score }));
    } finally {
      tensor.dispose();
    }
  }
}
