//! Ringo endgame tablebases, built by retrograde analysis.
//!
//! A table holds one **material class**: `a` attackers (the fortress
//! included, at most one of them in it, since two there is a win) and `d`
//! defenders. Every placement of those pieces on the board, with either side
//! to move, has one entry: who wins with best play from a fresh history and
//! in how many plies (the winner as fast as it can, the loser as slowly), or
//! [`Value::Cycle`] when neither side can force a win. What a cycle means is
//! the rules' `repetition`: the defenders win (the default) or it is a draw.
//!
//! **Why the values are exact.** A side that can force a win can do it along
//! a line that never repeats a position (the distance to the win falls at
//! every move), so no repetition rule can take that win away; a side that
//! cannot force a win can be kept from it forever, so the game ends by
//! repetition. The retrograde analysis computes exactly those two sets (the
//! "attractors" of each side's wins) and their distances, with no search
//! horizon and no path dependence.
//!
//! **Passes.** The entry is for a position reached by a move other than a
//! pass. After a pass, a second pass ends the game for the defenders, so
//! [`Tablebases::probe_after_pass`] answers "defenders in 1" when the side to
//! move may pass, and the entry otherwise (the moves are then the same).
//!
//! **Layout.** No keys are stored: an entry's index is computed from the
//! pieces (the attackers' cells ranked as a combination of the board's cells,
//! the defenders' as a combination of the cells left), so a table is one
//! `u16` per position. Captures leave the class for a smaller one, which is
//! built first and looked up; a move into the fortress stays in the class.
//!
//! The tables do not depend on the rules' `attackers` (the start count) or
//! `repetition` (only what a cycle means), so one table serves all six of
//! those variants of a rule set.

mod build;
mod file;
mod index;
mod registry;
mod table;
mod value;
mod verify;

pub use registry::{for_rules, install};
pub use table::{table_rules, Table, TableSummary, TablebaseError, Tablebases};
pub use value::{Material, Value};
pub use verify::{minimax, Verification};

#[cfg(test)]
mod tests {
    use super::file::*;
    use super::index::*;
    use super::value::*;
    use super::*;
    use ringo::Rules;

    #[test]
    fn ranks_and_unranks_are_inverse() {
        for k in 0..=4u32 {
            let total = binom(20, k);
            for r in 0..total.min(3000) {
                let bits = unrank(r, k);
                assert_eq!(bits.count_ones(), k);
                assert_eq!(rank(bits), r);
            }
        }
        let taken = 0b1011_0010u64;
        for bits in [0b1u64, 0b101, 0b1110, 0b1_0000_0001] {
            assert_eq!(compress(expand(bits, taken), taken), bits);
            assert_eq!(expand(bits, taken) & taken, 0);
        }
    }

    #[test]
    fn every_index_names_a_position_of_its_class_and_back() {
        let rules: Rules = "classic,rings=5".parse().unwrap();
        for m in [
            Material {
                attackers: 2,
                defenders: 1,
            },
            Material {
                attackers: 3,
                defenders: 0,
            },
        ] {
            let layout = Layout {
                material: m,
                cells: 40,
            };
            for i in (0..layout.len()).step_by(7) {
                let pos = layout.position(i, &rules);
                assert_eq!(Material::of(&pos), m);
                assert_eq!(layout.index(&pos), Some(i));
                assert_eq!(layout.position_side(i), pos.to_move());
            }
        }
    }

    #[test]
    fn small_tables_are_consistent_and_agree_with_plain_minimax() {
        for text in [
            "classic,rings=5",
            "globe,rings=5",
            "encyclopedia,rings=5,defender-pass=on,repetition=draw",
        ] {
            let rules: Rules = text.parse().unwrap();
            let mut tb = Tablebases::new(&rules);
            let built = tb.build_up_to(3, 1, 2, &|_, _, _| {}).unwrap();
            assert_eq!(built.len(), 4, "{text}: 2v0 2v1 3v0 3v1");
            let v = tb.verify(2, 150, 5, 7, &|_, _, _| {});
            assert_eq!(v.inconsistent, 0, "{text}: {v:?}");
            assert_eq!(v.disagreements, 0, "{text}: {v:?}");
            assert!(v.sampled_short > 100, "{text}: short wins sampled: {v:?}");
            // A wrong entry is found: a win made one ply longer.
            let m = Material {
                attackers: 2,
                defenders: 1,
            };
            let t = tb.tables.get_mut(&m).unwrap();
            let i = t.values.iter().position(|&v| v != 0).unwrap();
            let old = t.values[i];
            t.values[i] += 1;
            let v = tb.verify(1, 0, 5, 7, &|_, _, _| {});
            assert!(v.inconsistent >= 1, "{text}: a changed entry is found");
            tb.tables.get_mut(&m).unwrap().values[i] = old;
            // Every class has forced wins, and the attackers cannot always
            // win: the table is not one answer everywhere.
            for m in tb.classes() {
                let s = tb.table(m).unwrap().summary();
                assert!(s.attackers > 0, "{text} {m}: {s:?}");
                if m.defenders > 0 {
                    assert!(s.defenders + s.cycles > 0, "{text} {m}: {s:?}");
                }
            }
        }
    }

    #[test]
    fn a_table_written_is_read_back_and_damage_is_refused() {
        let rules: Rules = "classic,rings=5".parse().unwrap();
        let mut tb = Tablebases::new(&rules);
        tb.build_up_to(2, 1, 1, &|_, _, _| {}).unwrap();
        let dir = std::env::temp_dir().join(format!("agon-tb-{}", std::process::id()));
        tb.save(&dir).unwrap();
        // attackers and repetition do not change the tables: the same files.
        let other: Rules = "classic,rings=5,attackers=5,repetition=draw"
            .parse()
            .unwrap();
        let back = Tablebases::load(&dir, &other).unwrap();
        assert_eq!(back.classes(), tb.classes());
        let m = Material {
            attackers: 2,
            defenders: 1,
        };
        assert_eq!(back.table(m).unwrap().values, tb.table(m).unwrap().values);

        let path = file_path(&dir, tb.rules(), m);
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        let err = Tablebases::load(&dir, &rules)
            .err()
            .expect("damage is found");
        assert!(err.to_string().contains("checksum"), "{err}");
        std::fs::write(&path, &bytes[..40]).unwrap();
        let err = Tablebases::load(&dir, &rules)
            .err()
            .expect("truncation is found");
        assert!(err.to_string().contains("truncated"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_search_with_tables_reports_their_exact_result() {
        use crate::ringo::search::{Limits, Searcher};
        let rules: Rules = "classic,rings=5".parse().unwrap();
        let mut tb = Tablebases::new(&rules);
        tb.build_up_to(2, 1, 1, &|_, _, _| {}).unwrap();
        let tb = std::sync::Arc::new(tb);
        let mut rng = crate::Rng::new(3);
        let table = tb
            .table(Material {
                attackers: 2,
                defenders: 1,
            })
            .unwrap();
        let mut checked = 0;
        while checked < 30 {
            let pos = table.position(rng.next_u64() % table.len(), &rules);
            let Some(Value::Attackers(n) | Value::Defenders(n)) = tb.probe(&pos) else {
                continue;
            };
            if n == 0 {
                continue;
            }
            let game = ringo::Game::from_position(rules, pos);
            let mut s = Searcher::new(rules);
            s.set_tablebases(Some(tb.clone()));
            let r = s.search_game(
                &game,
                Limits {
                    depth: Some(2),
                    ..Limits::default()
                },
            );
            let p = r
                .proven
                .expect("every child is in the tables: a proven result");
            let winner = tb.probe(&pos).and_then(Value::winner).unwrap();
            assert_eq!(
                (p.winner, p.plies),
                (winner, u32::from(n)),
                "{}",
                pos.to_text(5)
            );
            checked += 1;
        }
    }

    #[test]
    fn values_survive_their_encoding() {
        for v in [
            Value::Cycle,
            Value::Attackers(0),
            Value::Attackers(77),
            Value::Defenders(0),
            Value::Defenders(MAX_PLIES),
        ] {
            assert_eq!(Value::decode(v.encode()), v);
        }
    }
}
