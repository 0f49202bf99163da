import { Code, ConnectError, type CallOptions } from '@connectrpc/connect';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Photo } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { checkPhoto, fileBytes } from '@/lib/files';
import { uploadProgress } from '@/lib/grpc-web-upload';
import { readRpcError } from '@/lib/rpc-error';

/** Sends one photo, telling how much of it went (0 to 1); resolves with the stored photo. */
export type UploadPhoto = (
  file: File,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
) => Promise<Photo>;

/**
 * An UploadPhoto from the call that stores a photo (AddRepairRequestPhoto, AddMessagePhoto):
 * the file's bytes in `content`, sent with its progress (src/lib/grpc-web-upload.ts).
 */
export function photoUpload(
  send: (content: Uint8Array, options: CallOptions) => Promise<{ photo?: Photo }>,
): UploadPhoto {
  return async (file, onProgress, signal) => {
    const content = await fileBytes(file);
    const { photo } = await send(content, { signal, contextValues: uploadProgress(onProgress) });
    if (!photo) throw new ConnectError('the server answered without the photo', Code.Internal);
    return photo;
  };
}

/** Why a photo was not sent: a server reason, or PHOTO_NO_ROOM when too many were chosen. */
export interface PhotoProblem {
  reason: string;
  /** The server's own words, shown when the reason has no text of ours. */
  message: string;
}

export type PhotoUploadState =
  /** Chosen, to be sent once there is somewhere to send it (a request being placed). */
  | { kind: 'waiting' }
  | { kind: 'queued' }
  | { kind: 'sending'; progress: number }
  | { kind: 'sent'; photo: Photo }
  /** It will not be taken as it is: remove it. */
  | { kind: 'refused'; problem: PhotoProblem }
  /** It may go another time (the network, the server busy): try again. */
  | { kind: 'failed'; problem: PhotoProblem };

export interface PhotoUpload {
  key: string;
  file: File;
  /** A `blob:` URL of the file, for its preview. */
  preview: string;
  state: PhotoUploadState;
}

/** Refusals the same file would meet again. */
const FINAL_CODES = [
  Code.InvalidArgument,
  Code.FailedPrecondition,
  Code.ResourceExhausted,
  Code.PermissionDenied,
  Code.NotFound,
  Code.Unauthenticated,
];

export const NO_ROOM = 'PHOTO_NO_ROOM';

/** The photos that are, or will be, sent: what counts against the room. */
export const photosTaken = (items: PhotoUpload[]) =>
  items.filter(({ state }) => state.kind !== 'refused').length;

/** Whether any photo is still to be sent or on its way. */
export const photosBusy = (items: PhotoUpload[]) =>
  items.some(({ state }) => state.kind === 'queued' || state.kind === 'sending');

interface PhotoUploadsOptions {
  /** Sends each photo as soon as it is chosen; without it they wait for `sendAll`. */
  upload?: UploadPhoto;
  /** Drops a photo from the list once sent (its owner shows it with the others). */
  forgetSent?: boolean;
}

/**
 * The photos a person chose, and their uploads: each checked first (checkPhoto, and the room
 * left), then sent one at a time, with its progress, and its refusal or failure kept beside
 * it. Lives outside React (`usePhotoUploads` follows it), so each step reads the list as it
 * is rather than as a render saw it.
 */
export class PhotoUploads {
  private items: PhotoUpload[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly controllers = new Map<string, AbortController>();
  private upload: UploadPhoto | null;
  private readonly forgetSent: boolean;
  private nextKey = 0;

  constructor({ upload, forgetSent = false }: PhotoUploadsOptions = {}) {
    this.upload = upload ?? null;
    this.forgetSent = forgetSent;
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = () => this.items;

  /** Adds the chosen files, `room` being how many more photos may go in all. */
  add(files: Iterable<File>, room: number) {
    let left = room - photosTaken(this.items);
    const added = [...files].map((file): PhotoUpload => {
      const refused = checkPhoto(file);
      const problem = refused
        ? { reason: refused, message: '' }
        : left <= 0
          ? { reason: NO_ROOM, message: '' }
          : null;
      if (!problem) left -= 1;
      return {
        key: `photo-${++this.nextKey}`,
        file,
        preview: URL.createObjectURL(file),
        state: problem
          ? { kind: 'refused', problem }
          : { kind: this.upload ? 'queued' : 'waiting' },
      };
    });
    this.set([...this.items, ...added]);
    this.pump();
  }

  /** Forgets a photo, stopping its upload. */
  remove(key: string) {
    const item = this.items.find((shown) => shown.key === key);
    if (!item) return;
    this.controllers.get(key)?.abort();
    URL.revokeObjectURL(item.preview);
    this.set(this.items.filter((shown) => shown.key !== key));
    this.pump();
  }

  /** Sends a photo that failed again. */
  retry(key: string) {
    this.update(key, { kind: this.upload ? 'queued' : 'waiting' });
    this.pump();
  }

  /** Sends every photo waiting (or that failed) with `upload`, which later ones use too. */
  sendAll(upload: UploadPhoto) {
    this.upload = upload;
    this.set(
      this.items.map((item) =>
        item.state.kind === 'waiting' || item.state.kind === 'failed'
          ? { ...item, state: { kind: 'queued' } }
          : item,
      ),
    );
    this.pump();
  }

  /** Stops every upload and releases the previews (the screen closed). */
  dispose() {
    for (const controller of this.controllers.values()) controller.abort();
    for (const item of this.items) URL.revokeObjectURL(item.preview);
    this.items = [];
  }

  private set(items: PhotoUpload[]) {
    this.items = items;
    for (const listener of this.listeners) listener();
  }

  private update(key: string, state: PhotoUploadState) {
    this.set(this.items.map((item) => (item.key === key ? { ...item, state } : item)));
  }

  /** Starts the next queued photo when none is on its way: one at a time. */
  private pump() {
    const upload = this.upload;
    if (!upload || this.items.some(({ state }) => state.kind === 'sending')) return;
    const next = this.items.find(({ state }) => state.kind === 'queued');
    if (!next) return;
    const controller = new AbortController();
    this.controllers.set(next.key, controller);
    this.update(next.key, { kind: 'sending', progress: 0 });
    const stillThere = () => this.items.some((item) => item.key === next.key);
    upload(
      next.file,
      (progress) => {
        if (stillThere()) this.update(next.key, { kind: 'sending', progress });
      },
      controller.signal,
    )
      .then((photo) => {
        if (!stillThere()) return;
        if (this.forgetSent) {
          URL.revokeObjectURL(next.preview);
          this.set(this.items.filter((item) => item.key !== next.key));
        } else {
          this.update(next.key, { kind: 'sent', photo });
        }
      })
      .catch((error: unknown) => {
        if (!stillThere()) return;
        const { code, reason, message } = readRpcError(error);
        const problem = { reason, message };
        this.update(
          next.key,
          FINAL_CODES.includes(code) ? { kind: 'refused', problem } : { kind: 'failed', problem },
        );
      })
      .finally(() => {
        this.controllers.delete(next.key);
        this.pump();
      });
  }
}

/** A PhotoUploads for the life of the component, and its list as it changes. */
export function usePhotoUploads(options: PhotoUploadsOptions = {}) {
  const [uploads] = useState(() => new PhotoUploads(options));
  const items = useSyncExternalStore(uploads.subscribe, uploads.snapshot);
  useEffect(() => () => uploads.dispose(), [uploads]);
  return { uploads, items };
}
