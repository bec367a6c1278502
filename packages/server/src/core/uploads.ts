/** A file part of a multipart request, as the transport hands it to services. */
export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}
