// TedBench times APTED (DatabaseGroup/apted, built from source by run.sh) on
// the ted-bench pairs, so that Gleaner's BenchmarkTED can be compared with
// APTED run on the same machine in the same session rather than with stored
// timings. It is Gleaner's own harness: none of APTED's code is here.
//
// Usage: java -cp build/classes TedBench --bench DIR [--out FILE] [--runs R]
//        [--variants tag,token,...] [--ids id1,id2,...]
//
// Per row: one warm-up call, then R timed calls (a fresh APTED object each,
// as a caller would use it); the median wall time (System.nanoTime) and the
// median CPU time of this thread (ThreadMXBean) are written, with the
// distance, which must equal the row's expected_distance.

import at.unisalzburg.dbresearch.apted.costmodel.StringUnitCostModel;
import at.unisalzburg.dbresearch.apted.distance.APTED;
import at.unisalzburg.dbresearch.apted.node.Node;
import at.unisalzburg.dbresearch.apted.node.StringNodeData;
import at.unisalzburg.dbresearch.apted.parser.BracketStringInputParser;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

public final class TedBench {

  /** One row of pairs.tsv. */
  record Row(String id, String file1, String file2, String variant, int expected) {}

  /** Measured medians of one row. */
  record Result(Row row, int distance, double wallMS, double cpuMS) {}

  /** Command-line options. */
  static final class Options {
    Path bench;
    String out;
    int runs = 3;
    Set<String> variants = new HashSet<>();
    Set<String> ids = new HashSet<>();
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  public static void main(String[] args) {
    try {
      Options opt = parseArgs(args);
      List<Row> rows = select(readPairs(opt.bench.resolve("pairs.tsv")), opt);
      if (rows.isEmpty()) {
        throw new IllegalArgumentException("no pairs.tsv row matches --variants/--ids");
      }
      List<Result> results = new ArrayList<>();
      for (Row r : rows) {
        results.add(measure(opt.bench, r, opt.runs));
      }
      write(opt, results);
    } catch (IllegalArgumentException | IOException | IllegalStateException e) {
      System.err.println("TedBench: " + e.getMessage());
      System.exit(1);
    }
  }

  static Options parseArgs(String[] args) {
    Options opt = new Options();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + a + " needs a value");
      }
      String v = args[++i];
      switch (a) {
        case "--bench" -> opt.bench = Path.of(v);
        case "--out" -> opt.out = v;
        case "--runs" -> opt.runs = positive(a, v);
        case "--variants" -> opt.variants.addAll(list(v));
        case "--ids" -> opt.ids.addAll(list(v));
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    if (opt.bench == null) {
      throw new IllegalArgumentException("--bench DIR (the ted-bench folder) is required");
    }
    return opt;
  }

  static int positive(String name, String v) {
    try {
      int n = Integer.parseInt(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(name + " " + v + ": want a positive integer");
  }

  static List<String> list(String v) {
    List<String> out = new ArrayList<>();
    for (String s : v.split(",")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }

  /** Reads pairs.tsv by its header, so column order does not matter. */
  static List<Row> readPairs(Path tsv) throws IOException {
    List<String> lines = Files.readAllLines(tsv, StandardCharsets.UTF_8);
    if (lines.isEmpty()) {
      throw new IllegalStateException(tsv + ": empty");
    }
    Map<String, Integer> col = new HashMap<>();
    String[] head = lines.get(0).split("\t", -1);
    for (int i = 0; i < head.length; i++) {
      col.put(head[i], i);
    }
    for (String k : List.of("id", "file1", "file2", "variant", "expected_distance")) {
      if (!col.containsKey(k)) {
        throw new IllegalStateException(tsv + ": no column " + k);
      }
    }
    List<Row> rows = new ArrayList<>();
    for (int n = 1; n < lines.size(); n++) {
      String[] c = lines.get(n).split("\t", -1);
      if (c.length < head.length) {
        throw new IllegalStateException(tsv + " line " + (n + 1) + ": " + c.length + " columns, want " + head.length);
      }
      rows.add(new Row(c[col.get("id")], c[col.get("file1")], c[col.get("file2")], c[col.get("variant")],
          Integer.parseInt(c[col.get("expected_distance")])));
    }
    return rows;
  }

  static List<Row> select(List<Row> all, Options opt) {
    List<Row> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Row r : all) {
      if ((opt.variants.isEmpty() || opt.variants.contains(r.variant()))
          && (opt.ids.isEmpty() || opt.ids.contains(r.id()))) {
        out.add(r);
        seen.add(r.id());
      }
    }
    for (String id : opt.ids) {
      if (!seen.contains(id)) {
        throw new IllegalArgumentException("--ids " + id + ": no such row (or not in --variants)");
      }
    }
    return out;
  }

  /** Parses one bracket-notation tree file with APTED's own parser. */
  static Node<StringNodeData> tree(Path bench, String file) throws IOException {
    String s = Files.readString(bench.resolve(file), StandardCharsets.UTF_8).trim();
    if (!s.startsWith("{") || !s.endsWith("}")) {
      throw new IllegalStateException(file + ": not a bracket-notation tree");
    }
    return new BracketStringInputParser().fromString(s);
  }

  static Result measure(Path bench, Row r, int runs) throws IOException {
    Node<StringNodeData> t1 = tree(bench, r.file1());
    Node<StringNodeData> t2 = tree(bench, r.file2());
    int d = distance(r, t1, t2); // warm-up, and the check
    double[] wall = new double[runs];
    double[] cpu = new double[runs];
    for (int i = 0; i < runs; i++) {
      long c0 = THREADS.getCurrentThreadCpuTime();
      long w0 = System.nanoTime();
      distance(r, t1, t2);
      wall[i] = (System.nanoTime() - w0) / 1e6;
      cpu[i] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
    }
    Result res = new Result(r, d, median(wall), median(cpu));
    System.err.printf("%s: distance %d, %.1f ms, %.1f cpu-ms%n", r.id(), d, res.wallMS(), res.cpuMS());
    return res;
  }

  /** Computes the unit-cost distance and fails loudly if it is not the expected one. */
  static int distance(Row r, Node<StringNodeData> t1, Node<StringNodeData> t2) {
    float f = new APTED<StringUnitCostModel, StringNodeData>(new StringUnitCostModel()).computeEditDistance(t1, t2);
    int d = Math.round(f);
    if (d != f || d != r.expected()) {
      throw new IllegalStateException(r.id() + ": APTED distance " + f + ", want " + r.expected());
    }
    return d;
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  static void write(Options opt, List<Result> results) throws IOException {
    PrintStream out = opt.out == null ? System.out
        : new PrintStream(Files.newOutputStream(Path.of(opt.out)), false, StandardCharsets.UTF_8);
    out.println("# APTED on ted-bench, same machine, in-JVM (JVM start excluded)");
    out.println("# date: " + Instant.now());
    out.println("# java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    out.println("# cpu: " + cpuModel() + " (" + Runtime.getRuntime().availableProcessors() + " cpus)");
    out.println("# runs: " + opt.runs + " after 1 warm-up; medians");
    out.println("id\tvariant\tdistance\tapted_ms\tapted_cpu_ms");
    for (Result r : results) {
      out.printf("%s\t%s\t%d\t%.2f\t%.2f%n", r.row().id(), r.row().variant(), r.distance(), r.wallMS(), r.cpuMS());
    }
    out.flush();
    if (out != System.out) {
      out.close();
    }
  }

  static String cpuModel() {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          return l.substring(l.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux: fall through
    }
    return System.getProperty("os.arch");
  }
}
