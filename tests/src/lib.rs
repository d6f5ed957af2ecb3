//! The library half of the test crate: the random program generator the property
//! tests and the fuzz targets (`fuzz/`) share. The tests themselves are in
//! src/integration.rs.

use std::collections::HashMap;

/// A random program: maps, folds read as free variables, filters, scans, gathers and
/// generates over two input vectors.
pub fn random_program(seed: u64, ops: usize) -> String {
    let mut rng = fusion_analysis::random::Rng::new(seed);
    let mut body = String::new();
    // (name, size class); class 0 is the inputs' size.
    let mut arrays: Vec<(String, usize)> = vec![("%a0".into(), 0), ("%a1".into(), 0)];
    let mut scalars: Vec<String> = Vec::new();
    let mut classes = 1;
    let mut used: HashMap<String, bool> = HashMap::new();
    for i in 0..ops {
        let pick = |rng: &mut fusion_analysis::random::Rng, arrays: &[(String, usize)]| rng.below(arrays.len());
        let v = format!("%v{i}");
        match rng.below(9) {
            0 | 1 => {
                let a = pick(&mut rng, &arrays);
                let (name, class) = arrays[a].clone();
                let same: Vec<&(String, usize)> = arrays.iter().filter(|(_, c)| *c == class).collect();
                let b = same[rng.below(same.len())].0.clone();
                let free = if !scalars.is_empty() && rng.chance(40) {
                    Some(scalars[rng.below(scalars.len())].clone())
                } else {
                    None
                };
                let read =
                    free.as_ref().map(|s| format!("    %s = array.index {s}[] : tensor<i64>\n")).unwrap_or_default();
                let combine = if free.is_some() { "%t, %s" } else { "%t, %y" };
                body += &format!(
                    "  {v} = array.map {name}, {b} : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%x: i64, %y: i64):\n{read}    %t = arith.addi %x, %y : i64\n    %u = arith.muli {combine} : i64\n    array.yield %u : i64\n  }}\n"
                );
                used.insert(name, true);
                used.insert(b, true);
                if let Some(s) = free {
                    used.insert(s, true);
                }
                arrays.push((v.clone(), class));
            }
            2 => {
                let (name, _) = arrays[pick(&mut rng, &arrays)].clone();
                body += &format!(
                    "  {v} = array.fold {name} init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {{\n  ^bb0(%acc: i64, %x: i64):\n    %t = arith.addi %acc, %x : i64\n    array.yield %t : i64\n  }}\n"
                );
                used.insert(name, true);
                scalars.push(v.clone());
            }
            3 => {
                let (name, _) = arrays[pick(&mut rng, &arrays)].clone();
                body += &format!(
                    "  {v} = array.filter {name} : tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%x: i64):\n    %p = arith.cmpi sgt, %x, %c0 : i64\n    array.yield %p : i1\n  }}\n"
                );
                used.insert(name, true);
                arrays.push((v.clone(), classes));
                classes += 1;
            }
            4 => {
                let (name, class) = arrays[pick(&mut rng, &arrays)].clone();
                let dir = if rng.chance(50) { "left inclusive" } else { "right exclusive" };
                body += &format!(
                    "  {v} = array.scan {dir} {name} init(%c0 : i64) : tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%acc: i64, %x: i64):\n    %t = arith.addi %acc, %x : i64\n    array.yield %t : i64\n  }}\n"
                );
                used.insert(name, true);
                arrays.push((v.clone(), class));
            }
            5 => {
                // reverse of an input-sized array: generate + gather (seed 000 §2)
                let (name, class) = arrays[pick(&mut rng, &arrays)].clone();
                body += &format!(
                    "  %n{i} = array.dim {name}, 0 : tensor<?xi64>\n  %is{i} = array.generate (%n{i}) : tensor<?xindex> {{\n  ^bb0(%j: index):\n    %c1 = arith.constant 1 : index\n    %m = arith.subi %n{i}, %j : index\n    %k = arith.subi %m, %c1 : index\n    array.yield %k : index\n  }}\n  {v} = array.gather {name}[%is{i}] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>\n"
                );
                used.insert(name, true);
                arrays.push((v.clone(), class));
            }
            6 => {
                // A fold whose combine does not commute (acc·3 + x): only a left-to-right
                // loop gives its value.
                let (name, _) = arrays[pick(&mut rng, &arrays)].clone();
                body += &format!(
                    "  {v} = array.fold {name} init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {{\n  ^bb0(%acc: i64, %x: i64):\n    %c3 = arith.constant 3 : i64\n    %m = arith.muli %acc, %c3 : i64\n    %t = arith.addi %m, %x : i64\n    array.yield %t : i64\n  }}\n"
                );
                used.insert(name, true);
                scalars.push(v.clone());
            }
            7 => {
                // A scatter of an array into zeros the inputs' size, at indices x mod n
                // (unsigned, so in range), combining old·10 + new (order matters). At odd
                // op numbers it has keep flags (seed 004's `Nothing`) that drop the odd x.
                let (name, _) = arrays[pick(&mut rng, &arrays)].clone();
                let (flag, yielded, types, keep) = if i % 2 == 1 {
                    (
                        "    %one = arith.constant 1 : i64\n    %odd = arith.andi %x, %one : i64\n    %k = arith.cmpi eq, %odd, %c0 : i64\n",
                        "%r, %k : i64, i1",
                        "tensor<?xi64>, tensor<?xi1>",
                        format!(" keep(%ix{i}#1 : tensor<?xi1>)"),
                    )
                } else {
                    ("", "%r : i64", "tensor<?xi64>", String::new())
                };
                let (ix, ix_results) = if keep.is_empty() {
                    (format!("%ix{i}"), format!("%ix{i}"))
                } else {
                    (format!("%ix{i}#0"), format!("%ix{i}:2"))
                };
                body += &format!(
                    "  %d{i} = array.dim %a0, 0 : tensor<?xi64>\n  %z{i} = array.generate (%d{i}) : tensor<?xi64> {{\n  ^bb0(%j: index):\n    array.yield %c0 : i64\n  }}\n  %w{i} = arith.index_cast %d{i} : index to i64\n  {ix_results} = array.map {name} : tensor<?xi64> -> {types} {{\n  ^bb0(%x: i64):\n    %r = arith.remui %x, %w{i} : i64\n{flag}    array.yield {yielded}\n  }}\n  {v} = array.scatter %z{i}[{ix}]{keep}, {name} : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {{\n  ^bb0(%old: i64, %new: i64):\n    %ten = arith.constant 10 : i64\n    %o = arith.muli %old, %ten : i64\n    %s = arith.addi %o, %new : i64\n    array.yield %s : i64\n  }}\n"
                );
                used.insert(name, true);
                arrays.push((v.clone(), 0));
            }
            _ => {
                let (name, class) = arrays[pick(&mut rng, &arrays)].clone();
                body += &format!(
                    "  {v} = array.map {name} : tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%x: i64):\n    %t = arith.subi %x, %c0 : i64\n    array.yield %t : i64\n  }}\n"
                );
                used.insert(name, true);
                arrays.push((v.clone(), class));
            }
        }
    }
    let mut results: Vec<String> =
        arrays.iter().skip(2).filter(|(n, _)| !used.contains_key(n)).map(|(n, _)| n.clone()).collect();
    results.extend(scalars.iter().filter(|s| !used.contains_key(*s)).cloned());
    let types: Vec<&str> =
        results.iter().map(|r| if scalars.contains(r) { "tensor<i64>" } else { "tensor<?xi64>" }).collect();
    format!(
        "func.func @random(%a0: tensor<?xi64>, %a1: tensor<?xi64>) -> ({}) {{\n  %c0 = arith.constant 0 : i64\n{body}  return {} : {}\n}}\n",
        types.join(", "),
        results.join(", "),
        types.join(", ")
    )
}

/// A random program built for `array-recompute` (`analysis::recomputation_never_raises_the_optimum`,
/// `compiled_differential::programs_with_recomputed_producers_agree`): single-input maps of
/// the arguments (its candidates) and generates (which it leaves alone), read by maps,
/// folds, scans, filters, two-input maps and maps that read a fold's result as a free
/// variable (which force later clusters).
pub fn recompute_program(seed: u64, ops: usize) -> String {
    let mut rng = fusion_analysis::random::Rng::new(seed);
    let mut body = String::new();
    let mut arrays: Vec<String> = vec!["%a0".into(), "%a1".into()];
    let mut scalars: Vec<String> = Vec::new();
    // Arrays read by some op: only the others are returned (a returned producer is
    // materialised anyway, and the pass leaves it alone).
    let mut read: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut maps_of_arguments: std::collections::HashSet<String> = std::collections::HashSet::new();
    let map = |v: &str, input: &str, free: Option<&String>| {
        let read = free.map(|s| format!("    %s = array.index {s}[] : tensor<i64>\n")).unwrap_or_default();
        let operand = if free.is_some() { "%s" } else { "%c3" };
        format!(
            "  {v} = array.map {input} : tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%x: i64):\n{read}    %c3 = arith.constant 3 : i64\n    %t = arith.addi %x, {operand} : i64\n    array.yield %t : i64\n  }}\n"
        )
    };
    let fold = |v: &str, input: &str| {
        format!(
            "  {v} = array.fold {input} init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {{\n  ^bb0(%acc: i64, %x: i64):\n    %t = arith.addi %acc, %x : i64\n    array.yield %t : i64\n  }}\n"
        )
    };
    for i in 0..ops {
        let v = format!("%v{i}");
        // Half the reads go to a map of an argument, so that most of them get several
        // consumers and the transformation applies.
        let candidates: Vec<&String> = arrays.iter().filter(|a| maps_of_arguments.contains(*a)).collect();
        let any = if !candidates.is_empty() && rng.chance(50) {
            candidates[rng.below(candidates.len())].clone()
        } else {
            arrays[rng.below(arrays.len())].clone()
        };
        let other = arrays[rng.below(arrays.len())].clone();
        match rng.below(9) {
            8 => {
                // seed 001's `cycle`: p = map a; s = fold p; v = map (+ s) p.
                let argument = format!("%a{}", rng.below(2));
                read.insert(argument.clone());
                let p = format!("{v}p");
                body += &map(&p, &argument, None);
                body += &fold(&format!("{v}s"), &p);
                body += &map(&v, &p, Some(&format!("{v}s")));
                read.insert(p.clone());
                maps_of_arguments.insert(p.clone());
                arrays.push(p);
                scalars.push(format!("{v}s"));
                arrays.push(v);
            }
            0 | 1 => {
                let argument = format!("%a{}", rng.below(2));
                read.insert(argument.clone());
                body += &map(&v, &argument, None);
                maps_of_arguments.insert(v.clone());
                arrays.push(v);
            }
            2 => {
                body += &format!(
                    "  {v} = array.generate (%n) : tensor<?xi64> {{\n  ^bb0(%i: index):\n    %ii = arith.index_cast %i : index to i64\n    array.yield %ii : i64\n  }}\n"
                );
                arrays.push(v);
            }
            3 => {
                read.insert(any.clone());
                body += &fold(&v, &any);
                scalars.push(v);
            }
            4 => {
                read.insert(any.clone());
                // Often the latest fold: `map (+ fold p) p` is the shape that recomputation
                // improves (seed 001's `cycle`).
                let free = match scalars.last() {
                    Some(last) if rng.chance(50) => Some(last.clone()),
                    Some(_) => Some(scalars[rng.below(scalars.len())].clone()),
                    None => None,
                };
                body += &map(&v, &any, free.as_ref());
                arrays.push(v);
            }
            5 => {
                read.insert(any.clone());
                body += &format!(
                    "  {v} = array.scan left inclusive {any} init(%c0 : i64) : tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%acc: i64, %x: i64):\n    %t = arith.addi %acc, %x : i64\n    array.yield %t : i64\n  }}\n"
                );
                arrays.push(v);
            }
            6 => {
                read.insert(any.clone());
                read.insert(other.clone());
                body += &format!(
                    "  {v} = array.map {any}, {other} : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%x: i64, %y: i64):\n    %t = arith.muli %x, %y : i64\n    array.yield %t : i64\n  }}\n"
                );
                arrays.push(v);
            }
            _ => {
                read.insert(any.clone());
                body += &format!(
                    "  {v} = array.filter {any} : tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%x: i64):\n    %p = arith.cmpi sgt, %x, %c0 : i64\n    array.yield %p : i1\n  }}\n"
                );
                // A filter's output has another size: it is only folded, never an
                // operand of the ops above.
                body += &fold(&format!("{v}s"), &v);
                scalars.push(format!("{v}s"));
            }
        }
    }
    let unread: Vec<&String> = arrays[2..].iter().filter(|a| !read.contains(*a)).collect();
    let results: Vec<String> = unread.iter().map(|a| a.to_string()).chain(scalars.iter().cloned()).collect();
    let types: Vec<&str> =
        unread.iter().map(|_| "tensor<?xi64>").chain(scalars.iter().map(|_| "tensor<i64>")).collect();
    format!(
        "func.func @f(%a0: tensor<?xi64>, %a1: tensor<?xi64>) -> ({}) {{\n  %c0 = arith.constant 0 : i64\n  %n = array.dim %a0, 0 : tensor<?xi64>\n{body}  return {} : {}\n}}\n",
        types.join(", "),
        results.join(", "),
        types.join(", ")
    )
}
