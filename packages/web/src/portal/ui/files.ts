/** A picked file as a `data:` URI, which is how the API takes images (icons, emojis). */
export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('Could not read the file.'));
    r.readAsDataURL(file);
  });
}

export const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';
