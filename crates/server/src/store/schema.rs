//! The schema policy for upgrades and rollbacks: expand, then contract.
//!
//! A release only *adds* to the schema (tables, nullable columns, indexes):
//! such a migration's name begins `expand_` (`V14__expand_seen_at.sql`).
//! What a release stops using is dropped one release later, by a migration
//! whose name does not begin so. Every query names its columns, so an
//! instance of the previous release keeps working on a schema that only
//! grew. An instance therefore starts beside a database that has
//! migrations newer than it knows when every one of them is an `expand_`
//! migration, and refuses, saying why, when one is not; a migration it
//! knows but the database lacks is applied as ever.

/// The beginning of a compatible migration's name.
pub const COMPATIBLE: &str = "expand_";

/// The migrations a runner carries (this binary's own), as version and name,
/// the form [`check`] compares.
pub fn known(runner: &refinery::Runner) -> Vec<(i64, String)> {
    runner
        .get_migrations()
        .iter()
        .map(|m| (i64::from(m.version()), m.name().to_string()))
        .collect()
}

/// Checks the migrations a database has applied (`applied`: version and
/// name) against those this binary knows (`known`): fine when every
/// applied migration newer than the newest known is compatible.
///
/// # Errors
/// A newer migration that is not compatible, named in a message that says
/// what to do.
pub fn check(known: &[(i64, String)], applied: &[(i64, String)]) -> Result<(), String> {
    let newest = known.iter().map(|(v, _)| *v).max().unwrap_or(0);
    let newer: Vec<&(i64, String)> = applied.iter().filter(|(v, _)| *v > newest).collect();
    match newer.iter().find(|(_, name)| !name.starts_with(COMPATIBLE)) {
        Some((v, name)) => Err(format!(
            "the database has migration V{v}__{name}, newer than this binary (it knows up to V{newest}) and not compatible with it (a compatible migration's name begins '{COMPATIBLE}'): run the newer agon, or restore a backup from before that migration"
        )),
        None => {
            if let Some((v, _)) = newer.last() {
                tracing::info!(
                    newest_known = newest,
                    newest_applied = v,
                    "the schema is newer than this binary, by compatible (expand_) migrations only: serving"
                );
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(list: &[(i64, &str)]) -> Vec<(i64, String)> {
        list.iter().map(|(v, n)| (*v, n.to_string())).collect()
    }

    #[test]
    fn only_compatible_newer_migrations_are_served_beside() {
        let known = m(&[(1, "schema"), (2, "jobs")]);
        assert!(
            check(&known, &m(&[(1, "schema")])).is_ok(),
            "an older database migrates"
        );
        assert!(check(&known, &m(&[(1, "schema"), (2, "jobs")])).is_ok());
        assert!(check(
            &known,
            &m(&[(1, "schema"), (2, "jobs"), (3, "expand_seen_at")])
        )
        .is_ok());
        let refused = check(
            &known,
            &m(&[(1, "schema"), (2, "jobs"), (3, "expand_a"), (4, "drop_b")]),
        );
        let why = refused.unwrap_err();
        assert!(why.contains("V4__drop_b") && why.contains("V2"), "{why}");
    }
}
