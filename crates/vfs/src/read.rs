//! Reading one file or a stream, the one way every front end and the
//! loader read an input: only a regular file (a FIFO would block, a device
//! never ends), and never more than a limit.

use std::{
    fs,
    io::{self, Read},
};

use camino::Utf8Path;

/// The largest input read by default, in bytes: 64 MiB. The Terraform,
/// Packer and Nomad files of the shared corpus are all below 1 MiB, and a
/// generated file (a provider schema, a big `tfvars`) is still a few
/// megabytes; a file past this is almost certainly not configuration (a
/// log, an image, a device), and checking it would cost tens of bytes of
/// memory per byte. It is well above the 50 MB stress input that must
/// still be read.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 64 << 20;

/// Why an input was not read.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file: what it is instead ("a FIFO", "a directory"…).
    /// Nothing was read.
    NotRegular(&'static str),
    /// Longer than the limit, in bytes; at most one byte past it was read.
    TooLarge {
        limit: u64,
    },
    Io(io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotRegular(what) => write!(f, "not a regular file but {what}"),
            ReadError::TooLarge { limit } => write!(f, "larger than the limit of {}", size(*limit)),
            ReadError::Io(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {
    /// An I/O error is shown as itself (see `Display`), so its source is
    /// the I/O error's own: a chain of causes names it once.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(error) => error.source(),
            ReadError::NotRegular(_) | ReadError::TooLarge { .. } => None,
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(error: io::Error) -> ReadError {
        ReadError::Io(error)
    }
}

impl From<ReadError> for io::Error {
    /// As an I/O error, for callers that keep one: the kind says which
    /// (`InvalidInput` for a file that is not a regular one, `FileTooLarge`),
    /// and the message is this error's.
    fn from(error: ReadError) -> io::Error {
        match error {
            ReadError::Io(error) => error,
            ReadError::NotRegular(_) => io::Error::new(io::ErrorKind::InvalidInput, error),
            ReadError::TooLarge { .. } => io::Error::new(io::ErrorKind::FileTooLarge, error),
        }
    }
}

/// `64 MiB`, `1000 bytes`: a limit as people read it.
fn size(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    const KIB: u64 = 1 << 10;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else if bytes == 1 {
        "1 byte".to_owned()
    } else {
        format!("{bytes} bytes")
    }
}

/// A file as read: its bytes, and its metadata as it was when opened (so
/// that a caller about to replace it can tell whether it is still the same
/// file).
pub struct ReadFile {
    pub bytes: Vec<u8>,
    pub metadata: fs::Metadata,
}

/// Reads the regular file at `path` (following symbolic links), at most
/// `max_size` bytes of it. Anything else is refused before it is opened
/// (reading a FIFO would wait for a writer, `/dev/zero` never ends); the
/// file is opened without blocking and checked again through the open
/// handle, in case a FIFO took its name in between. A file that grows past
/// the limit while it is read is refused too: at most `max_size + 1` bytes
/// are ever read.
pub fn read_file(path: &Utf8Path, max_size: u64) -> Result<ReadFile, ReadError> {
    let metadata = fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(ReadError::NotRegular(describe(metadata.file_type())));
    }
    if metadata.len() > max_size {
        return Err(ReadError::TooLarge { limit: max_size });
    }
    read_found_regular_file(path, max_size)
}

/// [`read_file`] of a path just found to be a regular file: by a
/// directory's listing (the entry's type, which needs no `stat`), or by a
/// `stat` of the caller's own (a cached check's file index). It is not
/// looked at again before it is opened. Opened without blocking and
/// checked through the handle as every file is, one that something else
/// took the name of meanwhile is refused as well. The `stat` before the
/// open was a sixth of the system calls of loading a module of
/// thousands of small files.
pub fn read_found_regular_file(path: &Utf8Path, max_size: u64) -> Result<ReadFile, ReadError> {
    let file = open_without_blocking(path.as_std_path())?;
    let opened = file.metadata()?;
    if !opened.is_file() {
        return Err(ReadError::NotRegular(describe(opened.file_type())));
    }
    if opened.len() > max_size {
        return Err(ReadError::TooLarge { limit: max_size });
    }
    let bytes = read_regular(file, max_size, opened.len())?;
    Ok(ReadFile { bytes, metadata: opened })
}

/// Reads a stream (standard input) to its end, unless it is longer than
/// `max_size` bytes: then at most one byte more is read, and it is refused.
pub fn read_stream(reader: impl Read, max_size: u64) -> Result<Vec<u8>, ReadError> {
    read_at_most(reader, max_size, 0)
}

/// Reads a regular file whose length was `expected` when it was opened,
/// as [`read_at_most`] does, in one read when it still has that length:
/// the read asks for a byte more, and stopping short at the length the
/// file was opened with is its end. Reading on until a read returns
/// nothing was a second read for every file: a sixth of the system calls
/// of loading a module of thousands of small files. A file that grew
/// meanwhile fills the byte more and is read on to its end; one that
/// shrank meets its end sooner, as any read does.
fn read_regular(mut file: impl Read, max_size: u64, expected: u64) -> Result<Vec<u8>, ReadError> {
    let Ok(room) = usize::try_from(expected.min(max_size).saturating_add(1)) else {
        return read_at_most(file, max_size, expected);
    };
    let mut bytes = vec![0; room];
    let mut filled = 0;
    loop {
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(read) => {
                filled += read;
                // At the length it was opened with, with room left: the
                // read stopped there.
                if filled as u64 == expected || filled == room {
                    break;
                }
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error.into()),
        }
    }
    bytes.truncate(filled);
    if filled < room {
        return Ok(bytes);
    }
    // It grew past what it was opened with: on to its end, or the limit.
    let left = max_size.saturating_add(1).saturating_sub(filled as u64);
    file.take(left).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_size {
        return Err(ReadError::TooLarge { limit: max_size });
    }
    Ok(bytes)
}

fn read_at_most(reader: impl Read, max_size: u64, expected: u64) -> Result<Vec<u8>, ReadError> {
    let capacity = usize::try_from(expected.min(max_size)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    reader.take(max_size.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_size {
        return Err(ReadError::TooLarge { limit: max_size });
    }
    Ok(bytes)
}

/// Opens a file for reading without waiting for a FIFO's writer (its
/// metadata then says what it is).
#[cfg(unix)]
pub fn open_without_blocking(path: &std::path::Path) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let nonblocking = rustix::fs::OFlags::NONBLOCK.bits();
    fs::OpenOptions::new().read(true).custom_flags(nonblocking.cast_signed()).open(path)
}

#[cfg(not(unix))]
pub fn open_without_blocking(path: &std::path::Path) -> io::Result<fs::File> {
    fs::File::open(path)
}

/// "a FIFO", "a directory"…: what a file that is not a regular one is.
pub fn describe(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() { "a directory" } else { "a special file" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir() -> (tempfile::TempDir, camino::Utf8PathBuf) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = camino::Utf8PathBuf::from_path_buf(dir.path().to_owned()).expect("a UTF-8 path");
        (dir, path)
    }

    #[test]
    fn a_file_up_to_the_limit_is_read_and_one_past_it_is_refused() {
        let (_dir, root) = temp_dir();
        let path = root.join("main.tf");
        fs::write(&path, "a = 1\n").expect("a written file");
        assert_eq!(read_file(&path, 6).expect("read").bytes, b"a = 1\n");
        let error = read_file(&path, 5).err().expect("refused");
        assert!(matches!(error, ReadError::TooLarge { limit: 5 }), "{error:?}");
        assert_eq!(error.to_string(), "larger than the limit of 5 bytes");
        // Refused by the length its open handle reports when listed.
        let error = read_found_regular_file(&path, 5).err().expect("refused");
        assert!(matches!(error, ReadError::TooLarge { limit: 5 }), "{error:?}");
        assert_eq!(read_found_regular_file(&path, 6).expect("read").bytes, b"a = 1\n");
        // A sparse file of a gigabyte is refused by its length, unread.
        let big = root.join("big.tf");
        fs::File::create(&big).and_then(|file| file.set_len(1 << 30)).expect("a sparse file");
        let error = read_file(&big, DEFAULT_MAX_FILE_SIZE).err().expect("refused");
        assert_eq!(error.to_string(), "larger than the limit of 64 MiB");
        assert_eq!(io::Error::from(error).kind(), io::ErrorKind::FileTooLarge);
    }

    #[test]
    fn what_is_not_a_regular_file_is_refused_unread() {
        let (_dir, root) = temp_dir();
        let error = read_file(&root, DEFAULT_MAX_FILE_SIZE).err().expect("refused");
        assert_eq!(error.to_string(), "not a regular file but a directory");
        let error = read_found_regular_file(&root, DEFAULT_MAX_FILE_SIZE).err().expect("refused");
        assert_eq!(error.to_string(), "not a regular file but a directory");
        #[cfg(unix)]
        {
            let fifo = root.join("pipe.tf");
            let made = std::process::Command::new("mkfifo").arg(fifo.as_str()).status().expect("mkfifo runs");
            assert!(made.success());
            // Reading it would wait for a writer forever.
            let error = read_file(&fifo, DEFAULT_MAX_FILE_SIZE).err().expect("refused");
            assert_eq!(error.to_string(), "not a regular file but a FIFO");
            // Listed as a regular file, then replaced by a FIFO: opened
            // without waiting, and refused by what the handle says.
            let error = read_found_regular_file(&fifo, DEFAULT_MAX_FILE_SIZE).err().expect("refused");
            assert_eq!(error.to_string(), "not a regular file but a FIFO");
            let error = read_file("/dev/zero".into(), DEFAULT_MAX_FILE_SIZE).err().expect("refused");
            assert_eq!(error.to_string(), "not a regular file but a character device");
            assert_eq!(io::Error::from(error).kind(), io::ErrorKind::InvalidInput);
        }
    }

    /// A reader that hands out at most `chunk` bytes a read and counts its
    /// reads.
    struct Chunked<'a> {
        bytes: &'a [u8],
        chunk: usize,
        reads: usize,
    }

    impl Read for Chunked<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.reads += 1;
            let n = buf.len().min(self.chunk).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// A file of the length it was opened with takes one read; one read in
    /// pieces, one that grew, one that shrank, and one that said it was
    /// empty (as files under `/proc` do) are read whole, and one that grew
    /// past the limit is refused.
    #[test]
    fn a_regular_file_is_read_to_its_end_in_one_read_when_it_can_be() {
        let text = b"a = 1\nb = 2\n";
        let read = |bytes: &[u8], chunk: usize, expected: u64, max: u64| {
            let mut reader = Chunked { bytes, chunk, reads: 0 };
            let read = read_regular(&mut reader, max, expected);
            (read, reader.reads)
        };
        let (bytes, reads) = read(text, usize::MAX, 12, 100);
        assert_eq!((bytes.expect("read"), reads), (text.to_vec(), 1));
        let (bytes, reads) = read(text, 5, 12, 100);
        assert_eq!((bytes.expect("read"), reads), (text.to_vec(), 3));
        let (bytes, _) = read(text, usize::MAX, 4, 100);
        assert_eq!(bytes.expect("read"), text, "grown since it was opened");
        let (bytes, _) = read(text, usize::MAX, 20, 100);
        assert_eq!(bytes.expect("read"), text, "shrunk since it was opened");
        let (bytes, _) = read(text, 2, 0, 100);
        assert_eq!(bytes.expect("read"), text, "said to be empty");
        let (bytes, _) = read(b"", usize::MAX, 0, 100);
        assert_eq!(bytes.expect("read"), b"");
        let (error, _) = read(text, usize::MAX, 4, 10);
        assert!(matches!(error, Err(ReadError::TooLarge { limit: 10 })), "{error:?}");
        let (bytes, _) = read(text, usize::MAX, 4, 12);
        assert_eq!(bytes.expect("read"), text, "grown up to the limit");
    }

    /// An endless stream (`/dev/zero` on standard input) is read one byte
    /// past the limit, no further.
    #[test]
    fn a_stream_is_read_one_byte_past_the_limit_at_most() {
        struct Counted<R> {
            inner: R,
            read: usize,
        }
        impl<R: Read> Read for Counted<R> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.inner.read(buf)?;
                self.read += n;
                Ok(n)
            }
        }
        let mut endless = Counted { inner: io::repeat(0), read: 0 };
        let error = read_stream(&mut endless, 1000).expect_err("refused");
        assert!(matches!(error, ReadError::TooLarge { limit: 1000 }), "{error:?}");
        assert_eq!(endless.read, 1001);
        assert_eq!(read_stream(&b"a = 1\n"[..], 6).expect("read"), b"a = 1\n");
        assert_eq!(size(3 << 10), "3 KiB");
        assert_eq!(size(1), "1 byte");
    }
}
