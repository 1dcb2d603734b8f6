//! The table files: one per class, a header with a checksum, then the
//! values.

use super::index::*;
use super::table::*;
use super::value::*;
use crate::fnv::{read_u16s, write_u16s};
use ringo::Rules;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

impl Tablebases {
    /// Writes every table to `dir` (one file a class).
    ///
    /// # Errors
    /// The directory or a file could not be written.
    pub fn save(&self, dir: &Path) -> Result<(), TablebaseError> {
        std::fs::create_dir_all(dir).map_err(|e| TablebaseError::Io(dir.to_path_buf(), e))?;
        for (m, t) in &self.tables {
            let path = file_path(dir, &self.rules, *m);
            let tmp = path.with_extension("tmp");
            let write = || -> std::io::Result<()> {
                let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
                let rules = self.rules.to_string();
                f.write_all(MAGIC)?;
                f.write_all(&(rules.len() as u32).to_le_bytes())?;
                f.write_all(rules.as_bytes())?;
                f.write_all(&[m.attackers, m.defenders])?;
                f.write_all(&t.len().to_le_bytes())?;
                write_u16s(&mut f, &t.values)?;
                f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
                std::fs::rename(&tmp, &path)
            };
            write().map_err(|e| TablebaseError::Io(path.clone(), e))?;
        }
        Ok(())
    }

    /// Reads every table of these rules found in `dir` (none is not an
    /// error: the result then holds no class).
    ///
    /// # Errors
    /// A file of these rules that cannot be read or is damaged.
    pub fn load(dir: &Path, rules: &Rules) -> Result<Tablebases, TablebaseError> {
        let mut tb = Tablebases::new(rules);
        for m in Self::plan(7, 4) {
            let path = file_path(dir, &tb.rules, m);
            if !path.exists() {
                continue;
            }
            let table = read_table(&path, &tb.rules, m)?;
            tb.tables.insert(m, table);
        }
        Ok(tb)
    }
}

pub(super) const MAGIC: &[u8; 8] = b"AGONRTB1";

/// `DIR/ringo-<rules>-<a>v<d>.tb`.
pub(super) fn file_path(dir: &Path, rules: &Rules, m: Material) -> PathBuf {
    let name = rules.to_string().replace([',', '='], "_");
    dir.join(format!("ringo-{name}-{m}.tb"))
}

pub(super) fn read_table(path: &Path, rules: &Rules, m: Material) -> Result<Table, TablebaseError> {
    let corrupt = |why: &str| TablebaseError::Corrupt(path.to_path_buf(), why.to_string());
    let io = |e| TablebaseError::Io(path.to_path_buf(), e);
    let mut f = std::io::BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut magic = [0u8; 8];
    f.read_exact(&mut magic).map_err(io)?;
    if &magic != MAGIC {
        return Err(corrupt("not an Agon Ringo tablebase"));
    }
    let mut len = [0u8; 4];
    f.read_exact(&mut len).map_err(io)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > 1000 {
        return Err(corrupt("damaged header"));
    }
    let mut text = vec![0u8; len];
    f.read_exact(&mut text).map_err(io)?;
    if text != rules.to_string().as_bytes() {
        return Err(corrupt("built for other rules"));
    }
    let mut class = [0u8; 2];
    f.read_exact(&mut class).map_err(io)?;
    if class != [m.attackers, m.defenders] {
        return Err(corrupt("another material class"));
    }
    let layout = Layout {
        material: m,
        cells: 8 * rules.rings as u32,
    };
    let mut count = [0u8; 8];
    f.read_exact(&mut count).map_err(io)?;
    if u64::from_le_bytes(count) != layout.len() {
        return Err(corrupt("wrong number of positions"));
    }
    let values = read_u16s(&mut f, layout.len() as usize).map_err(corrupt)?;
    Ok(Table { layout, values })
}
