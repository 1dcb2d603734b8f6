//! The endings' files: one a class, `urgammon-endings-<class>.tb`, a header
//! with the class and the entry count, the values, and a checksum.

use super::index::Class;
use super::table::{Endings, Table, SLOTS};
use crate::fnv::{read_u16s, write_u16s};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"AGONUEN1";

/// What went wrong with an endings file.
#[derive(Debug)]
pub enum EndingsError {
    /// Reading or writing failed.
    Io(PathBuf, std::io::Error),
    /// The file is not a whole table of its class.
    Corrupt(PathBuf, String),
    /// Only the points tables are written to disk.
    NotPoints,
}

impl std::fmt::Display for EndingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndingsError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            EndingsError::Corrupt(p, why) => write!(f, "{}: {why}", p.display()),
            EndingsError::NotPoints => f.write_str("only the points tables are saved"),
        }
    }
}

impl std::error::Error for EndingsError {}

/// `DIR/urgammon-endings-<class>.tb`.
pub fn file_path(dir: &Path, class: Class) -> PathBuf {
    dir.join(format!("urgammon-endings-{class}.tb"))
}

impl Endings {
    /// Writes every table to `dir`, one file a class (each written whole
    /// and then renamed, so a reader never sees half a file).
    ///
    /// # Errors
    /// The tables are not for points, or a file could not be written.
    pub fn save(&self, dir: &Path) -> Result<(), EndingsError> {
        if self.payoff.is_match() {
            return Err(EndingsError::NotPoints);
        }
        std::fs::create_dir_all(dir).map_err(|e| EndingsError::Io(dir.to_path_buf(), e))?;
        for (class, table) in &self.tables {
            let path = file_path(dir, *class);
            let tmp = path.with_extension("tmp");
            let write = || -> std::io::Result<()> {
                let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
                f.write_all(MAGIC)?;
                let name = class.to_string();
                f.write_all(&[name.len() as u8])?;
                f.write_all(name.as_bytes())?;
                f.write_all(&(table.values.len() as u64).to_le_bytes())?;
                write_u16s(&mut f, &table.values)?;
                f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
                std::fs::rename(&tmp, &path)
            };
            write().map_err(|e| EndingsError::Io(path.clone(), e))?;
        }
        Ok(())
    }

    /// Reads every class's table found in `dir` (none found is no error:
    /// the result holds no class).
    ///
    /// # Errors
    /// A file that cannot be read or is damaged.
    pub fn load(dir: &Path) -> Result<Endings, EndingsError> {
        let mut endings = Endings::new();
        for class in Class::all() {
            let path = file_path(dir, class);
            if path.exists() {
                endings.tables.insert(class, read(&path, class)?);
            }
        }
        Ok(endings)
    }
}

fn read(path: &Path, class: Class) -> Result<Table, EndingsError> {
    let corrupt = |why: &str| EndingsError::Corrupt(path.to_path_buf(), why.to_string());
    let mut f = std::io::BufReader::new(
        std::fs::File::open(path).map_err(|e| EndingsError::Io(path.to_path_buf(), e))?,
    );
    let mut magic = [0u8; 8];
    f.read_exact(&mut magic).map_err(|_| corrupt("truncated"))?;
    if &magic != MAGIC {
        return Err(corrupt("not an Agon Urgammon endings table"));
    }
    let mut len = [0u8; 1];
    f.read_exact(&mut len).map_err(|_| corrupt("truncated"))?;
    let mut name = vec![0u8; len[0] as usize];
    f.read_exact(&mut name).map_err(|_| corrupt("truncated"))?;
    if name != class.to_string().as_bytes() {
        return Err(corrupt("another class"));
    }
    let mut count = [0u8; 8];
    f.read_exact(&mut count).map_err(|_| corrupt("truncated"))?;
    let count = u64::from_le_bytes(count);
    if count != (class.len() * SLOTS.len()) as u64 {
        return Err(corrupt("wrong number of entries"));
    }
    let values = read_u16s(&mut f, count as usize).map_err(corrupt)?;
    Ok(Table { values })
}
