"""Where each benchmark data file comes from, as code, so a machine without the shared data can fetch it.

Every row repeats the `| file | bytes | sha256 |` line of the folder's SOURCE.md (a test keeps the two in
agreement), and adds how the fetcher gets the file. A fetched file must pass the same sha256 check as the
shared copy, so each route rebuilds the stored bytes *exactly*:

- a byte-identical copy of a source file (`Transform.NONE`);
- a source file gzipped here (`GZIP_PYTHON`, `GZIP_GNU`);
- a selection: the source file minus its held-out items, written the way the folder's SOURCE.md says
  (`SELECT_LINES`, `SELECT_JSON_ASCII`, `SELECT_JSON_UTF8`, `REPACK_TAR`; see `_rebuild`). The held-out
  positions come from the documented seeded draw (`HeldOut`), and the source file's own size and sha256
  (from SOURCE.md) are checked before anything is selected from it;
- a table made while the folder was prepared, which project code can make again from the fetched files
  (`Regenerate`): Spider's `dev_gold_check.tsv` (gold SQL run on SQLite) and miniF2F's
  `coq_8.16.1_check.tsv` (each statement compiled with coqc 8.16.1). The result is still checked against
  the recorded sha256, so a different SQLite or Coq that changes a message is caught, not trusted.

A file none of these can rebuild carries `unavailable` with the reason and is never fetched: smtlib's
`index.tsv` records z3 run times, which no rerun reproduces.

The gzip files were made by two different compressors, although both SOURCE.md files say only
"gzip (level 9, no name/mtime in header)". Recompressing the decompressed shared files showed which:
spider's 20 files and the satlib repacks match Python's `gzip.GzipFile(compresslevel=9, mtime=0)` (header
OS byte 255), and spider_en's 19 match GNU `gzip -9 -n` (gzip 1.12; zlib matches only 14 of the 19). So
each gzip row names its compressor.

The source URLs point at raw files on GitHub (`GITHUB_RAW`/<owner>/<repo>/<commit>/<path>). They were
built from the SOURCE.md text and the repository layout seen in a code index. None of them was fetched
from here, because this machine has no internet access, so it is not known whether they work. The path
of `flat100-239.tar.gz` is the one SOURCE.md gives (the repository root); it could not be confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from urllib.parse import quote

from countermem.domains._rebuild import HeldOut

GITHUB_RAW = "https://raw.githubusercontent.com"


class Transform(StrEnum):
    """How the downloaded source bytes become the stored file."""

    NONE = "none"
    GZIP_PYTHON = "gzip-python"
    GZIP_GNU = "gzip-gnu"
    SELECT_LINES = "select-lines"
    SELECT_JSON_ASCII = "select-json-ascii"
    SELECT_JSON_UTF8 = "select-json-utf8"
    REPACK_TAR = "repack-tar"

    @property
    def selects(self) -> bool:
        return self in _SELECTIONS

    def describe(self) -> str:
        return _DESCRIPTIONS[self]


_SELECTIONS = frozenset(
    {Transform.SELECT_LINES, Transform.SELECT_JSON_ASCII, Transform.SELECT_JSON_UTF8, Transform.REPACK_TAR}
)
_DESCRIPTIONS = {
    Transform.NONE: "a byte-identical copy of the source file",
    Transform.GZIP_PYTHON: "the source file gzipped with Python's gzip (level 9, no name, mtime 0)",
    Transform.GZIP_GNU: "the source file gzipped with GNU gzip -9 -n",
    Transform.SELECT_LINES: "the source's lines minus the held-out ones, each ending in a newline",
    Transform.SELECT_JSON_ASCII: "the source array minus the held-out items, as json.dumps(items, indent=4)",
    Transform.SELECT_JSON_UTF8: (
        "the source array minus the held-out items, as json.dumps(items, indent=4, ensure_ascii=False)"
    ),
    Transform.REPACK_TAR: (
        "the source tarball's regular members in name order minus the held-out ones, as ustar, "
        "gzipped with Python's gzip (level 9, no name, mtime 0)"
    ),
}


class Regenerate(StrEnum):
    """A table made while preparing the data folder, which project code makes again from fetched files."""

    SPIDER_GOLD_CHECK_EN = "spider-gold-check-en"
    SPIDER_GOLD_CHECK_DE = "spider-gold-check-de"
    COQ_CHECK_TABLE = "coq-8.16.1-check"

    def describe(self) -> str:
        if self is Regenerate.COQ_CHECK_TABLE:
            return "every statement compiled with coqc (8.16.1 wanted), as the folder's SOURCE.md describes"
        return "every gold query of dev.json run on its SQLite database, as the folder's SOURCE.md describes"


@dataclass(frozen=True)
class Origin:
    repository: str
    commit: str


@dataclass(frozen=True)
class SourceFile:
    """One stored file: its SOURCE.md checksum, and where it comes from (or why it cannot be fetched)."""

    relative: str
    size: int
    sha256: str
    origin: Origin | None = None
    source_path: str | None = None
    transform: Transform = Transform.NONE
    source_size: int | None = None
    source_sha256: str | None = None
    unavailable: str | None = None
    held_out: HeldOut | None = None
    regenerate: Regenerate | None = None

    def __post_init__(self) -> None:
        parts = self.relative.split("/")
        if self.relative.startswith("/") or ".." in parts or "" in parts:
            raise ValueError(f"{self.relative!r} must be a plain relative path inside the data folder")
        if self.unavailable is not None or self.regenerate is not None:
            return
        if self.origin is None or self.source_path is None:
            raise ValueError(f"{self.relative}: a fetchable file needs an origin and a source path")
        if self.transform.selects and (
            self.held_out is None or self.source_size is None or self.source_sha256 is None
        ):
            raise ValueError(
                f"{self.relative}: a selection needs the held-out draw and the source's checksum"
            )

    @property
    def fetchable(self) -> bool:
        """The fetcher can make this file: by download, or by regenerating it from downloaded files."""
        return self.unavailable is None

    @property
    def downloaded(self) -> bool:
        return self.unavailable is None and self.regenerate is None

    def url(self, base: str = GITHUB_RAW) -> str:
        if self.origin is None or self.source_path is None:
            raise ValueError(f"{self.relative} has no source: {self.unavailable}")
        path = quote(self.source_path, safe="/")
        return f"{base.rstrip('/')}/{self.origin.repository}/{self.origin.commit}/{path}"


@dataclass(frozen=True)
class DatasetSource:
    """A data folder's files, plus checksum rows its SOURCE.md keys by something other than a file.

    `extra_checksums` exists for spider_en, whose SOURCE.md also lists each source SQLite file by db_id;
    the Spider loader reads those rows to check the decompressed database, so a fetched SOURCE.md repeats
    them.
    """

    name: str
    summary: str
    origins: tuple[Origin, ...]
    files: tuple[SourceFile, ...]
    extra_checksums: tuple[tuple[str, int, str], ...] = field(default=())

    def checksums(self) -> dict[str, tuple[int, str]]:
        """`key -> (bytes, sha256)` exactly as the folder's SOURCE.md records them."""
        table = {f.relative: (f.size, f.sha256) for f in self.files}
        table.update({key: (size, digest) for key, size, digest in self.extra_checksums})
        return table

    @property
    def fetchable(self) -> tuple[SourceFile, ...]:
        return tuple(f for f in self.files if f.fetchable)

    @property
    def downloads(self) -> tuple[SourceFile, ...]:
        return tuple(f for f in self.files if f.downloaded)

    @property
    def regenerated(self) -> tuple[SourceFile, ...]:
        return tuple(f for f in self.files if f.fetchable and not f.downloaded)

    @property
    def unfetchable(self) -> tuple[SourceFile, ...]:
        return tuple(f for f in self.files if not f.fetchable)


Row = tuple[str, int, str]

_NOT_REPRODUCIBLE = (
    "made while preparing the shared data folder (not part of the upstream repository), and it records z3 "
    "run times, which no rerun reproduces byte for byte, so it can be neither fetched nor regenerated"
)


def _unavailable(relative: str, size: int, sha256: str, reason: str) -> SourceFile:
    return SourceFile(relative, size, sha256, unavailable=reason)


def _regenerated(relative: str, size: int, sha256: str, how: Regenerate) -> SourceFile:
    return SourceFile(relative, size, sha256, regenerate=how)


def _selection(
    relative: str,
    stored: tuple[int, str],
    origin: Origin,
    source_path: str,
    source: tuple[int, str],
    count: int,
    transform: Transform,
) -> SourceFile:
    """A file made from `source_path` by dropping the held-out draw over its `count` items."""
    return SourceFile(
        relative,
        stored[0],
        stored[1],
        origin,
        source_path,
        transform,
        source[0],
        source[1],
        held_out=HeldOut(count),
    )


def _verbatim(origin: Origin, rows: tuple[Row, ...], prefix: str = "") -> tuple[SourceFile, ...]:
    return tuple(SourceFile(rel, size, digest, origin, prefix + rel) for rel, size, digest in rows)


GSM8K_ORIGIN = Origin("openai/grade-school-math", "3101c7d5072418e28b9008a6636bde82a006892c")
MATH500_MIRROR = Origin("iamhankai/Forest-of-Thought", "97bdbabe6d7abd0a8fdeb6550ab197225b7ccfa2")
MBPP_MIRROR = Origin("valentim/cgen", "e60f29f003434228ad46f3b418a84b6526b9e808")
SATLIB_ORIGIN = Origin("sergedurand/SatSolver", "204bcb0bc563188cb2b5e00d1de1d79ebc3f6221")
MINIF2F_ORIGIN = Origin("LLM4Rocq/miniF2F-rocq", "b60affae5d9b81eb097424e3143c40165ccbe97b")
SMTLIB_2022 = Origin("SMT-LIB/benchmark-submission-2022", "81a39628827f61fbd74c6f3e67feb5c1b740d2f0")
SMTLIB_2023 = Origin("SMT-LIB/benchmark-submission-2023", "6e93d87b205c8d8c8927b4683759e7e7d386a3d8")
SPIDER_EN_ORIGIN = Origin("hyukkyukang/text2SQL", "999f5e467a3c2a263533f1dfa3d0106a18d343d1")
SPIDER_DE_ORIGIN = Origin("LeLuven/MachineSpider", "fec4cdd7c9954caaa8c88e3897b763302103d5a0")


# fmt: off
_MINIF2F_ROWS: tuple[Row, ...] = (
    ("audit.json", 15404, "d5b85220dcaa791965eb955e1f9b291d0aa471bf8ffb29779401cd769955a7fc"),
    ("test/aime_1983_p1.v", 275, "f10ca08ea18bb137dea55daa2e29039494862602f04f566fd0d40d5b481b7823"),
    ("test/aime_1983_p2.v", 232, "3653a703d4163974091f893bf2ff490337760e14f58c87bc7dbc929fd5db91d9"),
    ("test/aime_1983_p3.v", 327, "a198cf9ca4926065bdf17b1ca8fdaa7c178f91eae676c58c992a02ff1ecaab24"),
    ("test/aime_1984_p1.v", 239, "268fc06004fbdcfd80cb109d053a8cedf27e59f52a6e723faf48161cf0151f38"),
    ("test/aime_1984_p7.v", 222, "835bc894134ee11111aff16ec29c7dd5921239c6a8ec822190760b4e8815ccf3"),
    ("test/aime_1987_p5.v", 186, "97e1b0a1d6420e2ccda850e58a2aa3d5f70615895256d27b90c5aee7d37f5646"),
    ("test/aime_1988_p8.v", 343, "c8f5a03e186773ab0832da78a47281b5f72ca63e867858047525fdd7a2ab209e"),
    ("test/aime_1989_p8.v", 392, "5b702ac4dec29aa722963086318af0c9070cb4da0616c0d7e8478eec48c355d0"),
    ("test/aime_1990_p15.v", 249, "cf7ffef6273c1801cd8dc775eda0fce6f9f6bfcb13e72c03c96f4a6c03c9680a"),
    ("test/aime_1990_p4.v", 269, "30d7c2c0c4dd8126e9a3b257dd5939fa7270f36db2e1f129bbd258c319e6369e"),
    ("test/aime_1991_p9.v", 386, "e8de8cf780b0373b1dd02aaf96f55a25e4302d85369e5bd3bb073b7c61b42bac"),
    ("test/aime_1994_p3.v", 186, "a4f05b6cfb75282ae0b5b72d8316b362c930bcf3deb264d8c0b3df7649269177"),
    ("test/aime_1995_p7.v", 305, "095345bdef964bf87e92292862a14cf40c1a5bebfccbf3144e7c1e582aea1a84"),
    ("test/aime_1997_p9.v", 226, "78558e8f2578126279138b36f4aa37936dc8d5aa6dfa23902d5a70b06aaf69c3"),
    ("test/aime_1999_p11.v", 286, "4a5ca58f938e74dca070480f99279877e6fef60979f4b67f305aabcd6d8f91ab"),
    ("test/algebra_2varlineareq_fp3zeq11_3tfm1m5zeqn68_feqn10_zeq7.v", 246, "7f3ec11d0956c88d3300dec2a2d8ed585212e3530b3b77e3e86846d420c1bd62"),
    ("test/algebra_9onxpypzleqsum2onxpy.v", 216, "7b927958bf797c8cd42b66c46f97c75fd2d5fd248da6f9550582230e98b9f817"),
    ("test/algebra_abpbcpcageq3_sumaonsqrtapbgeq3onsqrt2.v", 268, "4aacb8d7c7f727a8dd24dd7728e8cd9a7836819f7ff7efa5ab08298d2c91e828"),
    ("test/algebra_absapbon1pabsapbleqsumabsaon1pabsa.v", 218, "a357e62cdc0c98f0a9b788676e160a4f51057c5481dd7b5d453b25591c73a9f8"),
    ("test/algebra_absxm1pabsxpabsxp1eqxp2_0leqxleq1.v", 197, "a4b7645b7b76110749b8ea9724aed23b8a537ac05a9ef5c6cdd2123a38224fb5"),
    ("test/algebra_amgm_sum1toneqn_prod1tonleq1.v", 452, "4b174fe85a44e43cc3dd44084ab25cf4824d3578a6b1feadbb1714ca5aea42d5"),
    ("test/algebra_amgm_sumasqdivbgeqsuma.v", 218, "21864fb0f2595a9c2e006f3807e7ae3582cb10f96757d63f1d9c96c9c7fa69bc"),
    ("test/algebra_apbmpcneq0_aeq0anbeq0anceq0.v", 354, "afb2f66aa624e9ee009e2205b1ed971ed88673534d30e7367788cc36d9c630f7"),
    ("test/algebra_apbon2pownleqapownpbpowon2.v", 225, "e821eae27047a451bb99d5e13c24fcf924a3c705b23f89e6ed7b492f473e6218"),
    ("test/algebra_apbpceq2_abpbcpcaeq1_aleq1on3anbleq1ancleq4on3.v", 301, "b1ecf54fc4b720acd138f58fd0873f4aa9e37fdc5352163a619114c71cdcd550"),
    ("test/algebra_bleqa_apbon2msqrtableqambsqon8b.v", 220, "0823bba8cb4112a03b16ab9b480f4782c1cb6daccf0056c0a402c594ee4abbb6"),
    ("test/algebra_cubrtrp1oncubrtreq3_rcubp1onrcubeq5778.v", 236, "75892fb33e6e5bbbb3159fdeacd677d3be639919724a8c3364859120037eb697"),
    ("test/algebra_ineq_nto1onlt2m1on.v", 194, "5ab3eb739d4b6047e1a68313f8004a99d645db848f7dc36027a21a271e956888"),
    ("test/algebra_others_exirrpowirrrat.v", 293, "83eff8efa9ebf8a211232ea460b4bc0820a196f20e0daf7972bab54fee970695"),
    ("test/algebra_sqineq_at2malt1.v", 119, "423e86861b68579721a2af602434f083972e7c3589784c22f32e21b61ec16ac5"),
    ("test/algebra_sqineq_unitcircatbpabsamblt1.v", 173, "1982fc328c29cd513ae449f1d7b7ed4c4efeb6d56791fe43ba0ca998c10e67c3"),
    ("test/algebra_sqineq_unitcircatbpamblt1.v", 163, "5cc4890719f7a87c7af2c9bb6227473556f9c23db2635ce9827a7673484e475b"),
    ("test/algebra_sum1onsqrt2to1onsqrt10000lt198.v", 169, "59043887cde6d82bfed1b6b6bf88baa14a7cd650d6e3fb4478119ddf4bd79c15"),
    ("test/amc12_2000_p1.v", 162, "4a529d71bcec2637c7e94e00a11aba29c41939d0c5339a845ce56542b5511765"),
    ("test/amc12_2000_p12.v", 122, "e90aee30fcf3dc5c938e9481cf6368e0fa94605606e12f35c49fd79e9d276b83"),
    ("test/amc12_2000_p20.v", 207, "81e73c7cab3308bc97a886cdd739e3c58e6800a45bb9f746b6716cc051452e28"),
    ("test/amc12_2000_p6.v", 301, "43b4c9f7b751ea05a0010c4cfd80e34ab698ba1539972e6acbe7e4db687c29e2"),
    ("test/amc12_2001_p21.v", 248, "e2ea93b68a8d684eb1cb7b4a785b2283633672f06baf87ba8ab3d9cf52da1c6e"),
    ("test/amc12_2001_p5.v", 1499, "fcb5a39611c9340c2e151ab85708383e4392837b6cf4d54bfd3a6078e6039f1c"),
    ("test/amc12a_2002_p13.v", 234, "dc0b0a5908f22ebf034beefc011c21b0e1a2c929b730d204120d18f45c653d94"),
    ("test/amc12a_2002_p6.v", 140, "643756f1f8fe730aac2b7a9d74fc16243d2f242657c2d30472d70ddcb0b54493"),
    ("test/amc12a_2003_p23.v", 454, "c72e2080400dc9001d7ca32aa5f9dd5107fcee2213b5a3502693729b0d435a20"),
    ("test/amc12a_2003_p5.v", 249, "7d1ca641a627a51fb176f22b539fb35d54ae236cc2c123ac78c78a78bb93fa6b"),
    ("test/amc12a_2008_p25.v", 303, "927d73dca7635bb31952a6aa9a8ae133159993cb8c3caf020dd3853cd6465d35"),
    ("test/amc12a_2009_p6.v", 198, "38f6161f7f700dc2cc740245a2df4e066cccac5f28d3f226b606752d3f8a7ec2"),
    ("test/amc12a_2009_p7.v", 285, "8b74e76ac0773e06236cdbc0596815d3d324f9e16030a24f0d39b5fdea0e833e"),
    ("test/amc12a_2013_p4.v", 137, "0de67b273070c92da90d6c8ad9b05fa257870b8778f539b8b88dbf5b1c927b34"),
    ("test/amc12a_2019_p12.v", 256, "31ddafbc1edbaa50f27c99f6fc68fcb47abbdfa33b06d25f999de5da8ad41d9a"),
    ("test/amc12a_2020_p10.v", 682, "06138b7cf7ee96675042d3f76034e183bb875d1c5fdaefd898521b1849200be3"),
    ("test/amc12a_2020_p15.v", 222, "47f42346cc6535454c7d0a07d56a67aa5b0794f47d1f46530a5fb45e33f01a27"),
    ("test/amc12a_2020_p25.v", 368, "7a895548b90ad9e39fe6582a3dec94703c7b20af3a8257323e038e0a18925796"),
    ("test/amc12a_2020_p4.v", 424, "c613318eb21b269f70e962c5f00b8c1edbc91c91d44965eadb8b0612e95eb91a"),
    ("test/amc12a_2020_p7.v", 482, "51a4c8ba17d6be59c46a3deb0431552301455d42a08c9a05ce82d4b64f0bb810"),
    ("test/amc12a_2020_p9.v", 343, "08111b86be0c2a9ba9b18097df7607657b91a93899af2984bcca5efc402d2320"),
    ("test/amc12a_2021_p12.v", 355, "fca9fac6fd5ab1a603fa316730f9467129124842830e93c7573a88e07b4c585a"),
    ("test/amc12a_2021_p14.v", 299, "bc8c67a1a9544abea4acafef59d3ca669ca12496f0f95dffaffeb91cb729a5ac"),
    ("test/amc12a_2021_p18.v", 387, "5e0185ab0aee8a0cfd06065d1affaa1f242452a365bcae1a76ea482be8be67a7"),
    ("test/amc12a_2021_p19.v", 421, "e8a4e13ca6b4b367c0ccf21e3c1de2286b4cf4e4ea8fa930b240638842ab6464"),
    ("test/amc12a_2021_p22.v", 286, "dbc1299f02ddd316d0f5594bbb2e023abea3f0699bdb880bedc3030811798b86"),
    ("test/amc12a_2021_p25.v", 635, "bf488d121f491c2707948c39f68672e692f492993a6923d156a2a31d08b37479"),
    ("test/amc12a_2021_p3.v", 230, "e9257e28e7fa63dbc0633d002901a7b20aa24db49e3fa9d2587cf590255811ce"),
    ("test/amc12a_2021_p8.v", 288, "7eb57635ef5eba2d8f118165e462c59413738f0603ad8dc2c56774015f85e078"),
    ("test/amc12a_2021_p9.v", 252, "48790188f76e67b950b57fe0717329934eefa7f68a3be3e783076bc5bc0984f2"),
    ("test/amc12b_2002_p19.v", 235, "65bc508e7c0cb810d3f9c1a04922a2af9582924f1f1321ecf56e79c0ad631f67"),
    ("test/amc12b_2002_p2.v", 168, "393706169246a89427e792302c4d8c1d3a63c8dba9da9fc5e2d9495ba69a27c2"),
    ("test/amc12b_2002_p4.v", 280, "a1e7b94980a51b144206cbc068a147578e915a80945f31af49ab877ca251357c"),
    ("test/amc12b_2002_p7.v", 216, "97055afd570ce4e12122e2c79dd4f7f83071f911a22e364f4fba5b02be9a6171"),
    ("test/amc12b_2020_p13.v", 166, "0cf21feadb52cfa60d52d4fdb24f02b40a9e35596ecc74c90329eb5745b3faef"),
    ("test/amc12b_2020_p2.v", 186, "e0bb76cee407108d96e03a042b72795279e89679b59203d4022133c3dc37eeeb"),
    ("test/amc12b_2020_p21.v", 385, "976906e7ea2782d205c2b18abcd70cda2df24db19b4713d0df1db393e92e0117"),
    ("test/amc12b_2020_p22.v", 236, "ac3c66c42b5be3a551607daeac8e223710499f8f56b1082b71d994f18af4a773"),
    ("test/amc12b_2020_p6.v", 210, "b78b5467539366c42d77d6af89c09e88060f2bc1197a23cfe43b4133f359d97a"),
    ("test/amc12b_2021_p1.v", 224, "38dab444d9f93bc2ed95adab994ecdb398a80ebafc76a233067f157832a634ba"),
    ("test/amc12b_2021_p13.v", 294, "e22747d1d7e72037f5a637a53207cb35bb5ab74736b5f76e2a52a653bd22f6ad"),
    ("test/amc12b_2021_p18.v", 232, "4a3261b30e37d511e0ba2d671fa17522ca5b3a7c1d38ff8107bd2a797c610e98"),
    ("test/amc12b_2021_p3.v", 165, "f2ff06979038e28d62c2868817b0ed38e6908ab31834649723a3353fa103a469"),
    ("test/amc12b_2021_p4.v", 229, "1173ead583143bce7684c1bb2db052dfab33ec13c03226c25de9f6ec01934cf7"),
    ("test/amc12b_2021_p9.v", 158, "d48c2d9474050db6925da51b77f28f575e4b646031f9d9f0c9bf2e235a5a39c2"),
    ("test/imo_1959_p1.v", 134, "1fd0fa426bf7de9dccc118e305c90acde55a9cd65051b0095b547559fcd1f50e"),
    ("test/imo_1960_p2.v", 242, "b50a56b730a20aa5d521b57668b017203a4b07409862ec7a55cbf63e7fa9c6ea"),
    ("test/imo_1962_p2.v", 203, "a59296c5a2af9ccb53afc530f494aca84fc9de6bba2775f2ec7d68b2002bbc1d"),
    ("test/imo_1963_p5.v", 143, "55348daa0af7738f0752e605189d6117f4b3dc28e6f70fe4f93b5ba8bff2b114"),
    ("test/imo_1964_p2.v", 264, "428aa7b78bc8d67e4c77d8a0b8c1aae48b3f07f3e84dc9ef74e3b70342111d44"),
    ("test/imo_1965_p2.v", 624, "d9ba9816b8af5185165991c945e095861c83b8d23026a2708b53e79deaadcb75"),
    ("test/imo_1968_p5_1.v", 235, "2024447e4719d950e1af591bd6191a0b970fce412e81537963f639e3456f87d4"),
    ("test/imo_1969_p2.v", 465, "6822b67f0738b6e4a8db22d27dd00dd37aecbb7f03fef5e3cc36fe62121fce58"),
    ("test/imo_1974_p3.v", 392, "12f5be8c21eff665d70b07b380ebc4e3f7dec093e1b8f053025d93d0a59edaa6"),
    ("test/imo_1977_p6.v", 210, "b966dee41ad304837dd299b5002b813a1d00c8d8e5c592a1ae34757b5fc38b30"),
    ("test/imo_1981_p6.v", 256, "f5a1e210fd111adb7d933446af223807ded422a0b42c014ed4fe74164fe69399"),
    ("test/imo_1982_p1.v", 243, "0b6254b11554438ed676cc685dec452c196a44a790316a8688a97ae805103d1f"),
    ("test/imo_1983_p6.v", 246, "51f8f907a7569c87d4b0cbaf36d3eecba79e264b729e5ea0dc4e33639d5f1194"),
    ("test/imo_1984_p6.v", 286, "40fc9da6d8b8106bb2ba9649dceb58033eb8f568a4ec884c5ab91c4156a9f5c2"),
    ("test/imo_1985_p6.v", 315, "c2bf4a9d6a51ac1250b8cf95e3b9208ca1daff8ee58ebb68bcb7577f849eef95"),
    ("test/imo_1992_p1.v", 234, "11199be55f3c9887b5fdc6c31a07d3f8822ef341d6e9e3e22fe9a3ffe1706a2e"),
    ("test/imo_1997_p5.v", 203, "42781b215158ba24319a9970096ee8ff7129c64ff1ceb1733536bd6a9026c1f6"),
    ("test/imo_2001_p6.v", 373, "b6e9cafe5ad5aeb03395ec460969dec06cd4e1bedfc3ee2be046f199fdef8cdb"),
    ("test/imo_2019_p1.v", 218, "fedad768218b6899032b1b46859c1d29df02f0fca7e61b76445053a6b7254955"),
    ("test/imosl_2007_algebra_p6.v", 269, "ef00f99eceb7cf50f5e9a28957865f95a8b1bbbe83b80d2dee6a9ffb488201d2"),
    ("test/induction_11div10tonmn1ton.v", 177, "ca51b586fc78f0befa482be7b9bf2a3cea059eba00f73b2026515295c9229200"),
    ("test/induction_12dvd4expnp1p20.v", 124, "27b5f930b901112424be8b752e0f68127b298ee20095526e0f1e362f790b521b"),
    ("test/induction_1pxpownlt1pnx.v", 179, "aebcc31aa9359c366604a481043b6c9b4d956cc00491e9a3c79db20a2d6d7245"),
    ("test/induction_nfactltnexpnm1ngt3.v", 135, "682a674a5ce8e51bb1586f0b62583d64aa39f9044d3fdac459cd10d61a3001be"),
    ("test/induction_pord1p1on2powklt5on2.v", 287, "28ac260ab35835fbab41cda11a2fdb6e0bfec6c253897bb1c3916cadbcc365d7"),
    ("test/induction_pprime_pdvdapowpma.v", 234, "f10c686e74e83af4cd620bd19a5f1858d323f430fb678633d95383a3f3a22aaf"),
    ("test/induction_prod1p1onk3le3m1onn.v", 332, "630e782ade1a901b1dafc9e7625ed93341a96f32a819afa9e573c553848d7e9c"),
    ("test/induction_sumkexp3eqsumksq.v", 358, "8e2aa53619738f03ea3ed1148ddd9ea2e5f7bb11879801ffd0602a1cf89c858f"),
    ("test/mathd_algebra_107.v", 178, "a9f9baeb8b682ff9631e8c18c6df7a701e960ea2b8329f54893495be8b0e963e"),
    ("test/mathd_algebra_113.v", 135, "ae6a0f5aaff08228a01622fb6f080b07cb8b2b58c11189a119f385e0f90a8489"),
    ("test/mathd_algebra_114.v", 187, "f98086cd46cf3f8cda2586d1b6f86f0abdcaed3df6c9cddf02d99d606883908b"),
    ("test/mathd_algebra_125.v", 160, "98c09fdc08280e66556499161885914c0b817fa0b5341fdcf4032a032a1bf82c"),
    ("test/mathd_algebra_129.v", 153, "57861c866d233f90fbe53cedb2624bfa4f9e7f1f252457e3f377ba01e2cdce04"),
    ("test/mathd_algebra_137.v", 209, "862a6938ca85b493257d72c7363463b65170cc795b717799cff2c86706e316a7"),
    ("test/mathd_algebra_139.v", 202, "b92f1d9ea5c95fd8d409f5eb4703e6cfcfb37bbbf0f42405d9f1944cafdc252a"),
    ("test/mathd_algebra_141.v", 169, "0d29a8ad2207e66cbeb82f7bc4a5c215ac5027a8264e98211ea585a6f1f83054"),
    ("test/mathd_algebra_142.v", 171, "7a467b19d8d4ea9f871679eb9a06e475f805ce0816ed3a66dc6adb67bec68737"),
    ("test/mathd_algebra_143.v", 187, "ab2d87197ba5b84a9c7938801eabb536c532d29263049653ad530387f0c72bc3"),
    ("test/mathd_algebra_148.v", 183, "30e0158bf866c57831f66d25c167e837297905331fed8321516a18141a1d2b17"),
    ("test/mathd_algebra_153.v", 229, "c8fee0db547c785a8fe96eef9d0b83faeed5bc8e1c25ed67894548b2f0da3528"),
    ("test/mathd_algebra_156.v", 237, "335380511210a57af5eedcbedae3fd7e3f27798a35784cb65501c6cf400ed85f"),
    ("test/mathd_algebra_158.v", 230, "e0cd1fe24d87b29849831b22b933bcc5ec32c54eab398e2282fdf1459d5e75e8"),
    ("test/mathd_algebra_160.v", 159, "5e21f25839c9c40bfe71378f0b4266429b7468ef55f3fd8709a85dfa6900e2aa"),
    ("test/mathd_algebra_17.v", 172, "250a63cf8c9686104c230fa4c67dd929cb83f7dc9d9574dcf6ad935a97ffd1e9"),
    ("test/mathd_algebra_170.v", 270, "58f324e4fd7410118355a86b4fe00cbc93b590e5812360d4bfbb6eebfb188cc3"),
    ("test/mathd_algebra_171.v", 143, "f853505acfcbcef23149c4a47d58aed02b17a7d35640fb701cc9280226ad81de"),
    ("test/mathd_algebra_176.v", 130, "d1d39656a97a3039a372059f4caac441f2f61f58bfccad372716517f7d493b1c"),
    ("test/mathd_algebra_184.v", 227, "a402d186080f674cef97ea32a6da57ed9515d6578fb08d8540224568fd951969"),
    ("test/mathd_algebra_188.v", 268, "358855ef6fc9b27e1c64052a21e4179c8e61de41f35936581df857b2c434dfc6"),
    ("test/mathd_algebra_196.v", 301, "c23b5d73b07fca09230efdb92c536f02eb9a8d2b5bb59aa1e48a6e037f39d046"),
    ("test/mathd_algebra_208.v", 125, "22a8563a4ef715fcecd7a6f86a6e310df686ad6d35ea652e5239ea7175bdf1d2"),
    ("test/mathd_algebra_209.v", 305, "c6775de2153bd3795b189c21eb8e14cbcd8f34ab81afb0d061ee62700dcaaa36"),
    ("test/mathd_algebra_215.v", 231, "10c7e40415cedad8622fd3bfc0aceb5a51e0a7df5c317e91c8caf35090c34503"),
    ("test/mathd_algebra_24.v", 133, "d54ee6a5cdb1d1a49c53421760866b544ff30e7a42f2f766b6125bcefa7d87c7"),
    ("test/mathd_algebra_246.v", 200, "1010a11d016ed7bf7e846a0e2932a1bdc8b1e1f182617d7e57f336a4999bd9ae"),
    ("test/mathd_algebra_263.v", 165, "07d772161f11b9be23edd6147c7632ee0df39815b691c312cfc1e50cf4a1acf6"),
    ("test/mathd_algebra_270.v", 176, "01d639284918743195e148c6a206e6592ba8e3b4db037e4cf86f9b75215dbd67"),
    ("test/mathd_algebra_275.v", 244, "6771f6fc86ea1afdd059fb379bf52d5fef61d7fa07b1afc186fa4706101d331b"),
    ("test/mathd_algebra_276.v", 228, "259adbeb9de3fbddacfa6fc04059482142ee901514ca6fb25af2b92d3629b2b2"),
    ("test/mathd_algebra_288.v", 224, "8d094243cbb4dad60e758ba8829b2f4220ebb157fde20bc6873342dd2b8944e6"),
    ("test/mathd_algebra_289.v", 424, "f16f43facc72219e642ed9021184912a87f21223f63d0a1ed99be629d8241e30"),
    ("test/mathd_algebra_293.v", 185, "c79a24bdfcad3ef91b84ecaf5dcfb2dedcce10ed67e99a7835b6ba9475c843bc"),
    ("test/mathd_algebra_296.v", 143, "fd5792dbf3a7924c697c83bf1e3d43898e2dcee3cb5c4f5dd45ae8a6417a6254"),
    ("test/mathd_algebra_302.v", 144, "ec9db356284864426e9d015c2fb51c8a7e3d7a4affcba5995845958f64841dcf"),
    ("test/mathd_algebra_304.v", 102, "b72f574c69165c21b9bacd5a5468207067f115652d179399ae2075856b5ccca0"),
    ("test/mathd_algebra_313.v", 213, "ba7db504c9f221c534a8fdce7c08d44adaca88ca655987b6b805b5d02855b6c9"),
    ("test/mathd_algebra_314.v", 157, "110881c80c78b8a5cfb792a0c2e2a56e09cd1abc7ac103edb3f87dea05a2341c"),
    ("test/mathd_algebra_320.v", 341, "f5568629517a4bfadb4f8556d785a5beed088e32ea5adba13187dec7693930eb"),
    ("test/mathd_algebra_329.v", 164, "b54ad03367d0d368a2f0fd04e2b0f352c62848e869bc81a78b385768d9e51762"),
    ("test/mathd_algebra_33.v", 177, "c555129a84f7f5be68d965b180104740fae2804d1ac2629de511690cd3cac17e"),
    ("test/mathd_algebra_332.v", 181, "32ba4cbf7da174b47fa6c1292e40b46700142440b4720e265804aa30ac6978a9"),
    ("test/mathd_algebra_338.v", 211, "9d1293a8bae9780426d19a94f59332dcf22123ef8a5ac5ef7d0bc3a999716321"),
    ("test/mathd_algebra_342.v", 341, "e5d543a8e67280e98a037eb5eb30931b54d6eba47ae8348afb850261d0ab261d"),
    ("test/mathd_algebra_346.v", 191, "713838094aff3fdd6ba3c3f58a126cd254d096c21322d68f25f6e99a50190490"),
    ("test/mathd_algebra_354.v", 178, "9f43608c7f86d8403786e15b57eec6592986ffe88ad7b80a0bbb4acfa26674ce"),
    ("test/mathd_algebra_359.v", 135, "8c288f3da521de102f61804cbd82735c57f4cfdb2ca7fae39600c73ad6936ef9"),
    ("test/mathd_algebra_362.v", 170, "e1258d25907514d00d8b7881891afb38269ce79c942b93d59a1884869fa6d6a4"),
    ("test/mathd_algebra_388.v", 207, "45efbe55e28ae58a5737b7875012b81ce2f2ba3981b67b0a40d79795829f3760"),
    ("test/mathd_algebra_392.v", 217, "0ca88cd58e9c7d271a4e6e2ec554390ced37ffdfc5def0ae5c6adc5246ffa2ad"),
    ("test/mathd_algebra_398.v", 203, "e92081302f606541fa89332dde55bca4bc94602439035270fd2f2e69801abd90"),
    ("test/mathd_algebra_400.v", 154, "89b2d756ebc3a847623cd6b0718793f3394f073fcf8edee42cb2b8ac0f37f3d0"),
    ("test/mathd_algebra_412.v", 152, "680bb8accb392fe16a532cc756d31379353b9da0455f13918616892f2fce2396"),
    ("test/mathd_algebra_419.v", 163, "6cc1fceece7218fd3db56512ecb14beb556d1fb88654dbfed1af098bcda6e348"),
    ("test/mathd_algebra_427.v", 209, "1a6df0b996d9522a45b59469d8ac31d807c531813b0def8c0668d8fb4768bb9a"),
    ("test/mathd_algebra_432.v", 143, "eb525b2b18d325f9b0363582ba7947c3ef40ea178e407578c5ebd2e5821049fa"),
    ("test/mathd_algebra_44.v", 163, "509c2dbc12e029c8640c02693a627e39f9ab5e73633a7f7fc444c27dd35e053c"),
    ("test/mathd_algebra_440.v", 132, "31ca955672fe10b61a0ad8fe291a4168e670c552dd9d56d332f2f08fe63b33de"),
    ("test/mathd_algebra_441.v", 172, "99de3d1685f8c956e18be0d4a7c43315e8de9fd1ba71f53f09d2fdf99664cc3c"),
    ("test/mathd_algebra_452.v", 228, "bd531bfa0b9e42bdd81e98da96ec3c02b60e06b05315bc3c31983f4ca6cab7bf"),
    ("test/mathd_algebra_459.v", 257, "38a8c2b0c259affd3d6451f45e1fad38c3ba3d2c5b5b80523d0a4c1682969385"),
    ("test/mathd_algebra_478.v", 200, "9fdd1c1a9963c39d6e31643cebd7b6d137dc75f32f164c2fae2008443dc5e741"),
    ("test/mathd_algebra_484.v", 107, "3c0a7f2cbe595e5dc70937712d434dec4f7ba5abc6d042e8884cc1525900f189"),
    ("test/mathd_algebra_487.v", 244, "c2cfbaa925d2566ef55ef68f874b61c126461f869c5a2126f29b010bbb561dc2"),
    ("test/mathd_algebra_513.v", 171, "2d348e0392bb1fd99d41fdf629042017d2497b835da0cd1a123eeaea5cd7df68"),
    ("test/mathd_algebra_598.v", 226, "16df7f59ddb16712c3a55f1fa517544455bbf19fe3dfb0546fb0f0cd46c1bc03"),
    ("test/mathd_algebra_756.v", 154, "13c27b56287a96c23d20938df18285e89dc9051078e92031a2b3571baa885804"),
    ("test/mathd_algebra_76.v", 227, "26d1cb4be306916b78f6d132470c9aa90371a41b20e1837b42fb1f55214516f3"),
    ("test/mathd_algebra_80.v", 157, "da60696fe48b416de04fd2225d58875836ebdfa075c0e99eeec1a1ba32aa910f"),
    ("test/mathd_numbertheory_100.v", 253, "cf3e5cf3e54892855bfeaac6ec896d826eca7d0ba1ca405d98223f2a8e8d79da"),
    ("test/mathd_numbertheory_1124.v", 170, "48189f8690d1a73a501ff6ce2689de60c5b9fe0aca3b5c24a50654beaa5811e7"),
    ("test/mathd_numbertheory_12.v", 178, "9c3bd2630cb2df046515017e26af22f1d5ab825bbde9c60715d619459727f021"),
    ("test/mathd_numbertheory_127.v", 195, "a0180d909040c7eaf8f9adbd808a9a96d0762990bc3d6db9633c97d779984807"),
    ("test/mathd_numbertheory_135.v", 475, "8322f132b4f07c3c22e1c0588c7d69f46f2040ad8388c9e0a81424f133688ce5"),
    ("test/mathd_numbertheory_150.v", 261, "10ce9f5e9906509288898a9df9c69390353a3821bd346338a8ea201fcf253ebc"),
    ("test/mathd_numbertheory_175.v", 116, "311cab7eea7ee08312207d25f9793f28c2eda9e361502b457691c78c1674159f"),
    ("test/mathd_numbertheory_185.v", 125, "743828ec40f7746e0c22ca9534fc4122e39e7b7afe896be88822fbe02b0f8a10"),
    ("test/mathd_numbertheory_207.v", 101, "439e0786fef9deff2ed07cd22417682166be829ce43eaee2c107477face4cea7"),
    ("test/mathd_numbertheory_212.v", 131, "4b8b7062bc9e5a584500f015ef1673677a2ee43c10321029b41bb1be55a8bcfa"),
    ("test/mathd_numbertheory_222.v", 155, "a503f8d889dd06545217324f21d644a925efe5717983a579dc408ca8b545ce2e"),
    ("test/mathd_numbertheory_227.v", 245, "9309d4047010b8a6985e2ef2e38c760ec6219fd471b5cab25a906102fcf730bb"),
    ("test/mathd_numbertheory_229.v", 97, "45f7932cdf06d78b3c9d46a7a429579dc11994ec8966a2993ab42052be4ee132"),
    ("test/mathd_numbertheory_233.v", 180, "40936d78ed2e88f12ae19ac49efddf9485dc0807623018182076e460817da9ef"),
    ("test/mathd_numbertheory_234.v", 215, "fa0243c6380eacf45dd531d12a22d3a474eddad6e9c336c0a9db44cfe7e98a5b"),
    ("test/mathd_numbertheory_235.v", 120, "6f4a1f0e7e3574bf92e0b3ec32ce6f9c96d2169b9c278d5bdde1e7fe16fadf77"),
    ("test/mathd_numbertheory_237.v", 202, "870f5270e7eb6ec435162ff6357c2483ea468933654297badd12005124e68a63"),
    ("test/mathd_numbertheory_239.v", 147, "847e984c5dff136e439c300837b000b10849fba8349b34ce227c2f371a6140b8"),
    ("test/mathd_numbertheory_247.v", 127, "6e2f96bc15c08f448879369c71d7ca4def2dd1dfd3ef574ecb3b13bbb06357cf"),
    ("test/mathd_numbertheory_254.v", 122, "0e94b51d9d0c43ca89174a73a68b94b798590bebb74b7374eb9deb07890758b5"),
    ("test/mathd_numbertheory_277.v", 163, "7d1a970c9050c601d236ca08e5cdd9e54e31108291dbf6d163a9342465e8b76a"),
    ("test/mathd_numbertheory_293.v", 242, "6f262ff1c6df26643b751eb533db6377d0d093e38231c009ee67862e09088569"),
    ("test/mathd_numbertheory_296.v", 226, "73ce1fde7a841c566fca3ddf646ed929bf35ddf6b4ebecd7dd8707c6548e4571"),
    ("test/mathd_numbertheory_299.v", 138, "77c5d1d2001c4de2e16dd64af822f895c379b74939d5e1143f7ebda9ff504353"),
    ("test/mathd_numbertheory_3.v", 202, "7a5a01f21477475718239dc6fd96a2705c39e6f0400d2a21bbbc4b99814a5de6"),
    ("test/mathd_numbertheory_314.v", 191, "8f97db9396c8af1643df04a1c0f696ee10e32f5d9fc96cf2c9884e685f992704"),
    ("test/mathd_numbertheory_320.v", 206, "303bfd2143941c13f60a5c4bc765e3ab0ad900768c4f7b1bc842c67549956ce1"),
    ("test/mathd_numbertheory_321.v", 168, "55c27a8c9b20301ee55d71228858fc7cab09ab5f0a42448280bef1c3b4e6f207"),
    ("test/mathd_numbertheory_328.v", 119, "a89d59c04e817742cab9c5816189fb5a08f614d57df67d8255b8b35e1f0bf37a"),
    ("test/mathd_numbertheory_34.v", 190, "3b4d659ccf195834c332204f003269b134a22c9cc1a9ffdf09f710d65480d50c"),
    ("test/mathd_numbertheory_341.v", 189, "761101c49ef3a12ca805270f69deb6ad108b839a50a046ccb5d2afdbe07ec683"),
    ("test/mathd_numbertheory_342.v", 86, "d2548d015c89b206a06db03ea86a21ae39c08cf964db251c0116c8036bde39fe"),
    ("test/mathd_numbertheory_343.v", 182, "26e7c690d32c8f16216f2dcf320dfb126db09daeb9ec9ec43c6b951ce2ccc420"),
    ("test/mathd_numbertheory_345.v", 134, "f5a7c9f957941bdca9ab13e423656ac881b85b4f4f9e0e36b6f4339753a97a0d"),
    ("test/mathd_numbertheory_353.v", 231, "37b157b9e6deafc5d1e8e469cae0c9899fc902c1facf55139e3e2f897461fbe4"),
    ("test/mathd_numbertheory_427.v", 591, "84e470959636123a8f70999c8896f409486ba67833167c94ac3de88f67ac94b6"),
    ("test/mathd_numbertheory_430.v", 301, "35ed6f099ce6cb4eee79f0dd4818ae7ef328d1b3dcff2c391e72767257a7aa8c"),
    ("test/mathd_numbertheory_435.v", 319, "6c46e793d4e67badd596eb2a7355b21a9179c9783862acaa0da502db3e6082b7"),
    ("test/mathd_numbertheory_447.v", 265, "6738765fc36f5db17ca02da57a26e3a815333f4d7a70333894d650e5469fd905"),
    ("test/mathd_numbertheory_451.v", 386, "80af54ee09a846fed703ac73cbb66e46e0d78b4bbd4d5a64b53813ed197b628c"),
    ("test/mathd_numbertheory_457.v", 156, "77a59566fb4851021c8c9fd5703f1f371b98038deb0221e3e05ee3b7e021997f"),
    ("test/mathd_numbertheory_483.v", 213, "c6e095528c4093add3a900a420d2dd0819455b209d2a842cc2d7b50b1b1a5dc4"),
    ("test/mathd_numbertheory_495.v", 232, "045a0d54682d7a7a62ec81c61c0a2745818a5afa50634db4bb953eead49c609f"),
    ("test/mathd_numbertheory_5.v", 164, "c0cd570f07c51ca056f31f59bfe308e306f581bd994f09dca6142c1c51ff9de6"),
    ("test/mathd_numbertheory_517.v", 106, "78ca20bc2354062e2a3df892e4c849e4a3d57424c143ae44c2c79ba6052e59da"),
    ("test/mathd_numbertheory_521.v", 242, "59a9a347378e527b969ee02efe9c84f07e69801bb9a2fbd8c17ef41e0203247c"),
    ("test/mathd_numbertheory_541.v", 149, "372065844691245a38176d65d4fecf22b3964a5cbc3040959fbad384b56a3e2a"),
    ("test/mathd_numbertheory_551.v", 89, "a93f39704f2697734ddd1c2374cca730b68bb358cf48045a5af963db1b760a44"),
    ("test/mathd_numbertheory_552.v", 516, "df24b093e100043b7382452532d6a21263353f6dcc252433a5cb0e6333f2c860"),
    ("test/mathd_numbertheory_559.v", 172, "eb0479768082a8b2c312ab5fbac2ae599644d39141de13822b9d29bcf9d18291"),
    ("test/mathd_numbertheory_582.v", 217, "61de77f08c9b1c91bc4c996bb0920843cf05a29141d1995798f50469211dd373"),
    ("test/mathd_numbertheory_618.v", 250, "db3afa01dd42cbd60cbb2f7f245522d046d0287e9d992096c7da4f54f6cb4eab"),
    ("test/mathd_numbertheory_66.v", 87, "a50823bd8c4c252f0531839218e5e9f5043f7ebffdb3df40d965a267be67d3f1"),
    ("test/mathd_numbertheory_711.v", 215, "952c3a08b45db0c87f10af30213110e3b28110fba11187c66f0deee8b89d2292"),
    ("test/mathd_numbertheory_728.v", 119, "e5af3987351cde05c7e5e2f5c89de7602aa033688dc2129dbe5bebec9f222086"),
    ("test/mathd_numbertheory_764.v", 356, "8096f0499022231e7c90331123da4f7fdeb84391a29b0878c2a8e099a555109e"),
    ("test/mathd_numbertheory_765.v", 166, "eb1638095979802c3f393e6a91a41f691d14c0757f493c730ac5214b43571db5"),
    ("test/mathd_numbertheory_769.v", 124, "549d950b5282806711ad602f4e4a43c65b6879e04c526778c0bb251c4257cec7"),
    ("test/mathd_numbertheory_85.v", 109, "6cc5ad3b61d58187ffd29e11a4c3ac58729001b8a012d5d536fbbb92a593d93a"),
    ("test/mathd_numbertheory_99.v", 151, "5eb7dd3ceb451375fc036a23eec2d162566f1b7e3b7a316750b239474523530a"),
    ("test/numbertheory_2pownm1prime_nprime.v", 210, "a0e75f268a5e9f9acece71b8e72b104ff2c1d892aa76f4a6329e28dbcb78fd87"),
    ("test/numbertheory_3pow2pownm1mod2pownp3eq2pownp2.v", 164, "dddff09e1db08aedca02c21bd8edf41f478ea45952a14c4c5b81f932f2c17bef"),
    ("test/numbertheory_4x3m7y3neq2003.v", 143, "6bb5722a47d341a3a3633cb1c2ce56fc2fdb4161d33f3bb62c4dfb878b96eb0d"),
    ("test/numbertheory_aoddbdiv4asqpbsqmod8eq1.v", 271, "f63637c40ad327279daa5833f9145c01ede9ece1f819aa02e105ef3f3582cfb6"),
    ("test/numbertheory_exk2powkeqapb2mulbpa2_aeq1.v", 289, "c37ae364d64b0d692f60b9e1a7ed2155aac78724cb0f2bcffef0fabdfb8504bb"),
    ("test/numbertheory_fxeq4powxp6powxp9powx_f2powmdvdf2pown.v", 267, "9419c5968fc12057baca674f98435430aaf81892e17539e96afd054c6f8a1aef"),
    ("test/numbertheory_notequiv2i2jasqbsqdiv8.v", 221, "85c98f766dc5db5bc7df3c87af6935458706ca1f2790179b3ea298d849ce8259"),
    ("test/numbertheory_x5neqy2p4.v", 128, "be28ca858e516d4698debc56c856269d4fd38126156d8fd689e5e5823bf307ba"),
    ("valid/aimeII_2001_p3.v", 365, "35e82b3ecc46d830a9a531e5b2025f5895250032a0fa3ab7e522ba98568f7ea5"),
    ("valid/aimeII_2020_p6.v", 478, "8919697e489e01b854e53b5fd1a473e016472c2caf2597552df4befc4968960f"),
    ("valid/aimeI_2000_p7.v", 333, "970a8077b4f6185cabbd36be3105b42c840d54f395cbd884808052ca1747919a"),
    ("valid/aime_1983_p9.v", 169, "c0fa8edb1423b485ff49e399da902b03643fb5c5be9190f5a3914059d15d07aa"),
    ("valid/aime_1984_p15.v", 484, "e3a1bb2a2748de809930a475962db6431dfc2fe9e442e8335e06fb994eb5692d"),
    ("valid/aime_1984_p5.v", 233, "10ef190b7ca7e8f2542fc78796f44c66accdc58a48ce373db50d9b5d773ef66b"),
    ("valid/aime_1987_p8.v", 401, "eed97585e537b1f02522583414fbb9050541835cdbfff96c5f857402cbafb3cf"),
    ("valid/aime_1988_p3.v", 232, "23b2201ea0d8f48fc53ae1ca39e1c46c9cc16974e138a5ba2ef738da1a6e3eff"),
    ("valid/aime_1988_p4.v", 265, "152672a0b9e1969a972beb680b9570d6b84f56beaaf942e09cf2b6966cec73d3"),
    ("valid/aime_1990_p2.v", 187, "2e758564bb6ff9e8f6e1b10d217376549dd68c3a1ecada1a78a1aee4ded87833"),
    ("valid/aime_1991_p1.v", 146, "cb671c261787657ea0fb3e8c423ce39f8c0a14f117208569b30b2a9115f905d4"),
    ("valid/aime_1991_p6.v", 351, "2804d523ef38f0b9de90ea30d525b8069a680fbe4d8ac0b26804dce4c55befda"),
    ("valid/aime_1994_p4.v", 313, "2b3fd0b7d1b980714d368494ea2da0369ae05b8e39e0b6da5be2e7fd3183a520"),
    ("valid/aime_1996_p5.v", 391, "26f9ee31daf464907e7152d796f341c31cdb8be5f9690b0526e879c4f7fef48a"),
    ("valid/aime_1997_p11.v", 338, "5cc774a11b3f82c54f1e7f06af238d634bdfc5191a86d4429586c2fb267215fb"),
    ("valid/algebra_2complexrootspoly_xsqp49eqxp7itxpn7i.v", 199, "a92d5ec2a4ddf0f4025c349ca5d45a92f08c6590f9f3d7234e8587e4bd28d69d"),
    ("valid/algebra_2rootsintpoly_am10tap11eqasqpam110.v", 192, "d1bdd76f1be840521578d36965550b695b61f5fff42617d40804b14367a53560"),
    ("valid/algebra_2rootspoly_apatapbeq2asqp2ab.v", 206, "0e08b344a4ef62797c4ba697340b2c36050a6ef504f1b736ff7bb7e94a0f4d98"),
    ("valid/algebra_2varlineareq_xpeeq7_2xpeeq3_eeq11_xeqn4.v", 222, "6bd4d7be7662064cb9ef5275928ef95b8cc752688d08a4a22aa29418ae6e44ea"),
    ("valid/algebra_3rootspoly_amdtamctambeqnasqmbpctapcbtdpasqmbpctapcbta.v", 287, "e20f3653e415eab88ed195af269a474b352c66e3cb87d0a01afe1aad93fae4cd"),
    ("valid/algebra_amgm_faxinrrp2msqrt2geq2mxm1div2x.v", 171, "39f613bc2eae49dbc4f3e57e9f6d91ae78834056f161e3ce1155a61eda519b2a"),
    ("valid/algebra_amgm_prod1toneq1_sum1tongeqn.v", 422, "cd26a50e3a2b29935aa73027936b7b90c2fe3e50d9a91b16459704d8ba021105"),
    ("valid/algebra_amgm_sqrtxymulxmyeqxpy_xpygeq4.v", 212, "a4cbdd938e4ab960374c196571043caa99c9be056b8c43493041bb157e3afd57"),
    ("valid/algebra_amgm_sumasqdivbsqgeqsumbdiva.v", 217, "553eab6bfd9691aa1a6119e3e45c291f8eb7fb4c1fd9d832086ac0d6939a7327"),
    ("valid/algebra_apb4leq8ta4pb4.v", 162, "fdda503a2a2c26936c817087c6f415167bde09da620925a588520f22311d5a25"),
    ("valid/algebra_binomnegdiscrineq_10alt28asqp1.v", 147, "5d780af7f3f896f7ceb73e9690df2ded761a1a90bee70583f3a5514d6e52c314"),
    ("valid/algebra_manipexpr_2erprsqpesqeqnrpnesq.v", 200, "65f6d6352c05983cece659170b44a11e0cbc6cea5b77618b741c3265c02533c2"),
    ("valid/algebra_manipexpr_apbeq2cceqiacpbceqm2.v", 213, "b8baaab1a35a568f6db956153f494e0c8a93bd43084f8c644a6e6c8b3ee81d84"),
    ("valid/algebra_sqineq_2at2pclta2c2p41pc.v", 163, "dbda5fbdcaafcdfb9b68b80c8ca05d9e75e3af77d5b8b3764d74308ec2c785ec"),
    ("valid/algebra_sqineq_2unitcircatblt1.v", 154, "58236e561ff41bec02a999ef31727231f4822c3df1613cb4aede806264628350"),
    ("valid/algebra_sqineq_36azm9asqle36zsq.v", 149, "8cd242e58d5344710e8b3477a67672b1ca92114343918c5982117193fed49205"),
    ("valid/algebra_sqineq_4bap1lt4bsqpap1sq.v", 174, "40345eb284fca1bde255ae65ed1a5fc60fd35310abd5ea64fc9e47854d06e5fa"),
    ("valid/algebra_xmysqpymzsqpzmxsqeqxyz_xpypzp6dvdx3y3z3.v", 270, "29204e85ff8e2e4b724b6d34256ec2997deefcf1eb41bd1e2fab170c909f0dc9"),
    ("valid/amc12_2000_p11.v", 172, "c461478293b4e297bd65bb7309d98646d285b92df02813f42a75e098b01b4938"),
    ("valid/amc12_2000_p15.v", 325, "c6980ee787458f01e9a8450222700cee1930bcbba731a8e2b319bbd023b1f88e"),
    ("valid/amc12_2000_p5.v", 156, "dfdaf9dbcd87b0f7a7d156841e6d8c0dc0d33b27b4bca4d3679e8aa81c2c29ab"),
    ("valid/amc12_2001_p2.v", 178, "c26919a02acf7216241f654f36354f8f601aa6b04052dec6a1e64708de2e5eaf"),
    ("valid/amc12_2001_p9.v", 194, "e0498475c744a695b1e0472968f9759795d81fcc565441c5940a593c171283f5"),
    ("valid/amc12a_2002_p1.v", 360, "cd623407d32f99c8b2bef507ae6b535ca6dbc4e19f70a96de1a42d901ff0a7fb"),
    ("valid/amc12a_2002_p12.v", 400, "082c8f973a254d2d6ab9e7fbc42232775a0c43020bf6d16e2d483fc630e31cc0"),
    ("valid/amc12a_2002_p21.v", 381, "51713824ffe94f593291b1970d2b3e1fc69f9e6f2011d9f14379bd0221a2fa22"),
    ("valid/amc12a_2003_p1.v", 270, "9b0daf9e187387904d5119ed17775ee2c9654b06b0392c4705d5f0423d3bfd8a"),
    ("valid/amc12a_2003_p24.v", 179, "3b48d5aeeaad74e9d87f596d45285dfc114d8b799ff4ecffe9f4d68b92f5be50"),
    ("valid/amc12a_2003_p25.v", 368, "aeda3825c3c6e475e9175ae6d34c1c12134412647c90b98a1a10f555fe125d92"),
    ("valid/amc12a_2008_p15.v", 178, "ac780a55c2951914de8999ad3e52e19a365d8136d18223e8dc12c7bf0421a25b"),
    ("valid/amc12a_2008_p2.v", 142, "988fc6b1dce15349e9166b28c5f3a103295c16dc4167525f21bf6df569bb9be5"),
    ("valid/amc12a_2008_p4.v", 258, "3d0b5d363e84e033ce5905052ae3931781e305becfab44ac79bf243929c16384"),
    ("valid/amc12a_2008_p8.v", 191, "1f1bb51b1be208615bc6d6640f5eb9d204513f5ee229de1cf09828a571890ec3"),
    ("valid/amc12a_2009_p15.v", 271, "35785f9b81dfe9861133df172707fa4518c3551d1ebfd227bf14449b8085b0f1"),
    ("valid/amc12a_2009_p2.v", 139, "95f3574f80491ded23353afbe76eb3aeec500c4509b7f541b93f924c398028e1"),
    ("valid/amc12a_2009_p25.v", 280, "eab739c9e0939a495313f5058ef1690c2dd69a1b2179ed939f0e1621b466f4a4"),
    ("valid/amc12a_2009_p5.v", 153, "21c903f5ec05226fc19c241d440ca6bbebd3a77843208e31af69e059f17c7942"),
    ("valid/amc12a_2009_p9.v", 234, "9c7250f72402889d8bc146d2120bfb3e4783e65941dcd3b4eac055d294c83c05"),
    ("valid/amc12a_2010_p10.v", 309, "3e229af9c56f0376724403467fb328989f481496b4f67f8e26d976694f26f5fb"),
    ("valid/amc12a_2010_p11.v", 196, "9a9dd798187e0765b52ed76fe2ffd94f0a2dc950f515d6e857fbae70dad7d749"),
    ("valid/amc12a_2010_p22.v", 262, "8d8ec443c403b23ee9b67ace5e01a656423915ac388af99ee26dc555bf1d66e8"),
    ("valid/amc12a_2011_p18.v", 167, "751f7504c30dd73b4895ff80ddeb1b7100c100087ddf5d26ab3d413cba7cb3c1"),
    ("valid/amc12a_2013_p7.v", 208, "bbc3ba8496801c1bd0340d36b85ded05c985c67f7c72b0016429301b8d9de6f0"),
    ("valid/amc12a_2013_p8.v", 176, "2f3590b315a42fe26a0437873746c45ae6e97cf7ff8386be7cf2be7693664429"),
    ("valid/amc12a_2015_p10.v", 159, "c243e3ed869113792c24625849f45696afdb47eb17b708bb8773eb92cfc0777f"),
    ("valid/amc12a_2016_p2.v", 139, "44aa09ab9613db40db2e8d8f838c6729d1e7d52da68b8f353b0daef1d1a1c928"),
    ("valid/amc12a_2016_p3.v", 334, "f7e2d743528b0fccb0f88d5d4023a306f5b22dc2ccebf498d3264655435d2aa0"),
    ("valid/amc12a_2017_p2.v", 177, "5eab107931ffd4413b7282bcfe78a2df306b1dba343cbe08b59c3a69d15b3da0"),
    ("valid/amc12a_2017_p7.v", 333, "966390f0f3f26438abe58438ef3ef4fa3e432331e79feea06dbde19a197051e5"),
    ("valid/amc12a_2019_p21.v", 315, "b8f14cb100e7f240604c7a1d78b238d3ee2cb4eb77427eb59b1e4853878f3ef8"),
    ("valid/amc12a_2019_p9.v", 365, "b8a4f6593360610898e7e8c48be077420441cb98abf30ef42278fc7f4388dacc"),
    ("valid/amc12a_2020_p13.v", 314, "090f98d12660fb9a5817ae1f85e7049f35a96a24ae811b616ccefd7dc13fa16d"),
    ("valid/amc12a_2020_p21.v", 493, "b4d26fce35042098291470e305d309774979dc6a5f7486596c77b699b36e1b09"),
    ("valid/amc12a_2021_p7.v", 137, "94349539087a4546c4267255f4ec47ec65f5236a2ef3781ea77c77dc091bf06f"),
    ("valid/amc12b_2002_p11.v", 215, "8f8937b6dbc1912a0d726b8a8c2f74797defcf20f27c35a5725d12be32ef55e1"),
    ("valid/amc12b_2002_p3.v", 182, "522269da406f03eb495ac0098a757b56572cf99d4f9cb2280d74e367a94c311a"),
    ("valid/amc12b_2002_p6.v", 200, "90e737ebf34feafc5d983c7e2fd11ffa6fbc690362677667e96af91269ad0a52"),
    ("valid/amc12b_2003_p17.v", 192, "7f596e2849026d244769173e62222017dbcf4b7fc9fff4d17d9fa99973e5d5c9"),
    ("valid/amc12b_2003_p6.v", 235, "3839483561aca0187a7849429307266de82a446a13d7ff40a818ada6dafcdd8f"),
    ("valid/amc12b_2003_p9.v", 193, "5395d2b27dce9b7eaa63fd9302a308bb70a66368c20a5ee51e880d7228ea4ffd"),
    ("valid/amc12b_2004_p3.v", 116, "1e7ffeef5677ddb9bc8200b94fcb8229d1bcd77ec7b438302432ab4555b1dde5"),
    ("valid/amc12b_2020_p5.v", 231, "3924b40fce6fe24e3f2dee73f2dceb527308f588fcd95e592e5cc81342829ab2"),
    ("valid/amc12b_2021_p21.v", 328, "dc72661f7753286fd48e81db99bc43dbef6f7486447d1d771327a6fc5a38c60e"),
    ("valid/imo_1961_p1.v", 276, "995e7fab332ab14228304b75c488479fefb0af654a9a611b1a6574e9efe4a96c"),
    ("valid/imo_1962_p4.v", 386, "dd1b5b7e01edc0a7d77180281617d2e5695dc11aa15551c1c7e117efa62b4e97"),
    ("valid/imo_1964_p1_1.v", 121, "7f3cfe74bb942fb15d155c377ea1a2ee4db4e1ba2c3a3d6c5d8136d97b377d65"),
    ("valid/imo_1964_p1_2.v", 128, "f91f4988a03f94be3388e5a8cfd0c91a813fe3c5bc4d55c00c0854e4778a7439"),
    ("valid/imo_1965_p1.v", 317, "6b7322fa9cc0e42d8934077352385db9490e6988f1faca8b0fc7ccfb53a21f54"),
    ("valid/imo_1966_p4.v", 445, "206053cd4c8fda6f8fdb27f7ae5e99640402d39e0713dd885531a9f26053dbff"),
    ("valid/imo_1966_p5.v", 1982, "4f85f6f4eb1b0f02ce3cf6e4e23360eb767ed2d8a9d05d14cf2c3dc0ce0d7279"),
    ("valid/imo_1967_p3.v", 565, "19bd5d9c8c93426bdabdc20c07b691441a4abec131f86da2452ef1de07c288ec"),
    ("valid/imo_1973_p3.v", 182, "db896498ad01594b30f52b625c51707f9103e4e99657298d0d9fbe20d74ed2d1"),
    ("valid/imo_1974_p5.v", 256, "d91905fada1a6836100a01028c61d8a7c141700f5796360eda76b2be5e931f97"),
    ("valid/imo_1977_p5.v", 410, "9569e4945f59d3630887c71f8fbb23256afcffaa0995d72c12953f07cec6f084"),
    ("valid/imo_1978_p5.v", 352, "4a958fde0c16c9cb1129ab7b73607b92e070eb0687a2e0815cadc557a659a542"),
    ("valid/imo_1979_p1.v", 365, "1b8e2620cc0cf9fd1a9bcdd7b6d210eb018124962adb8d2df6e8edb813a3db2b"),
    ("valid/imo_1984_p2.v", 268, "44c8dd9950c8ceadc08c86b3ae670f2808c14d34593ec74b7f6e595be14aaa3f"),
    ("valid/imo_1987_p4.v", 112, "1dbe1204c6add82c678d63f4877c95dab2c2c35e24989ec5a565e82242a9991e"),
    ("valid/imo_1987_p6.v", 348, "b3e92f0722d2c2a6b9d0ccfb48a75c0df268c97c2658f8f9ebc5ab279d2bf9c6"),
    ("valid/imo_1988_p6.v", 270, "ca5839f624a593371b7ef73fb7a7a4da5d158189d22b0b02e2216474e3fd21de"),
    ("valid/imo_1990_p3.v", 137, "d1fe7d4c07fa6e252bf28593f3ff7b3444daf747e8534669342140220c64e81e"),
    ("valid/imo_1993_p5.v", 237, "e443e45a9c8fcd97db33defcbd279d3fa332af21eb811ec585085f023f8472e5"),
    ("valid/imo_2006_p3.v", 209, "ee6d56db8ac3be45439e8376e1da6cd56e9a0862735a8ba8f11d008e9075c3f7"),
    ("valid/induction_divisibility_3div2tooddnp1.v", 196, "9eedf764fc89f17c27dfc51d6dae3c94694fce16a26b9b553616870a124cde58"),
    ("valid/induction_divisibility_3divnto3m2n.v", 155, "a7dfaf19a9befe95b44ada034033d6c475e93595bdd1bfe51c61fe7a27eeee38"),
    ("valid/induction_divisibility_9div10tonm1.v", 191, "526507d6a0a8490e00b6def1d451e7fedc237e818972dbdf7af71332549540cc"),
    ("valid/induction_ineq_nsqlefactn.v", 230, "14a680260f25eb43163a27169b7e86405116814d94fd865b1ba87cbdee0715d4"),
    ("valid/induction_seq_mul2pnp1.v", 208, "9ce31a886a90e7478acb6c1e8f6f34a0c2c83aae1c395adbb4f6b52c765842d0"),
    ("valid/induction_sum2kp1npqsqm1.v", 1079, "2b601c7d3475062899eb87e57d32cc06c314b3080fc69bb8515ef93b9d2ae66b"),
    ("valid/induction_sum_1oktkp1.v", 224, "2a4aadbd6133b1224af2aac539eeff408a2a86b57abe6f8ae979f754502ed7a1"),
    ("valid/induction_sum_odd.v", 317, "c777ef0f21533409a5caca929ffef8b118b3b12c535997dd98a7e56b124757ea"),
    ("valid/mathd_algebra_10.v", 136, "455bcc7623156c6735ea4fb74c8f6898bae6783d1e6c1b8d4f5fe834374c328b"),
    ("valid/mathd_algebra_101.v", 152, "833e31a742624caf044a6a4f78f20cbe426c00050040db013ab9506c42091a19"),
    ("valid/mathd_algebra_104.v", 132, "2c2084714ac062160a3f99aece5f7004fa23d47fdcc0dfcf2b56ef0edac18da4"),
    ("valid/mathd_algebra_109.v", 142, "44fb52628a2480f15adf1cec2631ca8957a5af4aa25b31f469e83d00206cfdf8"),
    ("valid/mathd_algebra_11.v", 210, "6002fa1b983eee0b10d801a42b1627114bbfa2dabfca100e4b020e268b871e8e"),
    ("valid/mathd_algebra_110.v", 190, "0c0f8e148fc7262368382373bf449edcce7ddcc5745aba9b584705f9d997ec31"),
    ("valid/mathd_algebra_116.v", 178, "d077020fa354c4cc69f262d90cf947427aec938943c950bb5a6156b2e80dcb4e"),
    ("valid/mathd_algebra_119.v", 165, "611da9c046c311192d99008020da19919c44c0e4200886c28eb42c805fb7e83b"),
    ("valid/mathd_algebra_123.v", 138, "0f6b5384b1dd7d90f8ad457c58a2009c771c7a7a3986b426014bfb59793aa01f"),
    ("valid/mathd_algebra_126.v", 179, "107b1ed46f20773a630215c4dd745bf603aa0877dedfa326532bedde39e0c9c6"),
    ("valid/mathd_algebra_13.v", 240, "f09a1ab13cd6ec2c2c2a74a485c8ca08325ccd0e4070b0addc830b8257630f6d"),
    ("valid/mathd_algebra_131.v", 245, "1bb95ed7209059707fa2c4b4002cd17dc3fae6c6d9905f08fd6a110ebfcb0d51"),
    ("valid/mathd_algebra_132.v", 215, "9d883300ce7f7e7b340a4c99c548bdb4ee9efc52b33d25f713e5aaafa1100c5d"),
    ("valid/mathd_algebra_140.v", 242, "542f36172eaaf1bf070a5a8f4def198cb393744d1e5edb2470e51275f0b56431"),
    ("valid/mathd_algebra_144.v", 239, "7963780e145b8197d69dffb066526bfa3c6bba28aba3232a283fb9159af3e0b1"),
    ("valid/mathd_algebra_149.v", 387, "f9ebb0ba797c41538e471d583407154c697ee5cd51bcf68dad2692d3d4667700"),
    ("valid/mathd_algebra_15.v", 188, "4a380b7785876557a74f3913efca39694a555f2a7cd2024455e4574beb9e4ceb"),
    ("valid/mathd_algebra_151.v", 178, "c6a445a56c11e4653abd6e05eb1fd110a8c1fd112e8b8e251ced24cd53aa988d"),
    ("valid/mathd_algebra_159.v", 215, "1057019d3aa5cac703ed23e23b220e4e5a017e0452b95ee22d9b8a6d087a8853"),
    ("valid/mathd_algebra_181.v", 153, "5751838c6b775a3021e59f7eee5d39c68f692d8eeedccf102f018233b88daad4"),
    ("valid/mathd_algebra_182.v", 161, "6ee83b207c5a4c494e8d5590e424e3afcf98dc0ec5e385c462efb695aa859ebd"),
    ("valid/mathd_algebra_185.v", 264, "662d4e581bf4696bc5af44e6af93f570583721530917d16f596540bab36dd0d8"),
    ("valid/mathd_algebra_190.v", 104, "1222dff9446bf31e670373ba53976cd55dad34fd891744308d480e077de55dd3"),
    ("valid/mathd_algebra_192.v", 226, "f05381ca50c4b99dfcecabc25dfa3f9f2b89a6b04af586a1f49f33a99d35a8f3"),
    ("valid/mathd_algebra_206.v", 214, "8ab2dc7b015e8747eb1cb904d733da084a2b6553148661455693fc8f468378bf"),
    ("valid/mathd_algebra_214.v", 183, "1fd3b8683233fea2353d856f15a0c64233115e16ca90bc4d9686216e2ae56812"),
    ("valid/mathd_algebra_22.v", 156, "b9f18735ad0077a71bc77a56cef41c6d1f9dec7b83bf6d1514732263c152f09c"),
    ("valid/mathd_algebra_224.v", 320, "302882a031209ab331395f8ed8fca1c5a6e2e071f3d24225c1ac8667e7bfbd00"),
    ("valid/mathd_algebra_234.v", 203, "c3f119bf7e8f06413603cf31797a89c1e179da38e15952225f66a13ef5c18538"),
    ("valid/mathd_algebra_245.v", 179, "b98af3213f83951d9652ecb46cea71c7d6546612a2ffcd37e4fec989c61426ad"),
    ("valid/mathd_algebra_247.v", 186, "d66fd55ebe7886a8df7f64ba38058dbe722c1603c5482f0966fec712e2409ab7"),
    ("valid/mathd_algebra_251.v", 142, "98f8a537fa413ddc83967861a63060d6660e406371b28cea448ab128ca4699f0"),
    ("valid/mathd_algebra_267.v", 175, "35f1da3b626c471abea1852a5bf2afff9f471ea9262419d8d398e950ba8b246e"),
    ("valid/mathd_algebra_28.v", 207, "1ea450aa85478762d0eecc558fb920fcc45dc0cf9f10975e0eaaf2c8087923f3"),
    ("valid/mathd_algebra_282.v", 515, "2f970f97fd81af687ceedc965fd81af2f6507f359337e7b97a01a87e469efad4"),
    ("valid/mathd_algebra_31.v", 257, "af9b918f64861f0f535a60f766e26d4c24a9cf21dca4c48af0c787cafeb6d2f7"),
    ("valid/mathd_algebra_323.v", 297, "d79870bf488a86a62502eaa8c26a3de8a0011b1db5de1d3e8777d5345ea1db93"),
    ("valid/mathd_algebra_327.v", 149, "ad345e36a92942a1be34d31b3efa8e7be740ac8be5a971a334c024719cd08db7"),
    ("valid/mathd_algebra_35.v", 197, "305ce8bff06e550af39a1f1e642c137fac7c0a03e12289d0553b16674408de12"),
    ("valid/mathd_algebra_37.v", 158, "7f0f49b67d34580ddb9db739e4fd4adca703a726e2a9e258d6e103f8bbe0c044"),
    ("valid/mathd_algebra_393.v", 466, "eb6e453f24dd304d9e2fc467e1d4dc0d5c6d3984f8b1456fe8d0818dff202927"),
    ("valid/mathd_algebra_405.v", 136, "197f62996b66f2d3bfabb273a5ff864d8c13190241bee42d2b9bfdb69a41d312"),
    ("valid/mathd_algebra_410.v", 141, "1844ec4a56b82d05c9fcf98074777fbab5b133bc86f6f53216155816e007fd82"),
    ("valid/mathd_algebra_421.v", 247, "c39944c0a66d629893600ffb5b389dc834c8089a8488f1906d6a3ddc34069c86"),
    ("valid/mathd_algebra_422.v", 297, "ac7ae274ad5f41fda17fb7418e75c77fa4790677f73ea3a33c32595ec54cc03d"),
    ("valid/mathd_algebra_43.v", 193, "bb9bbcecd7fd7549aaa7e1441647f55c39ea373da9e42c9df4a2c9fbe32bc889"),
    ("valid/mathd_algebra_433.v", 163, "7d04b15c241dba9fd5462f5b89e4c3622fe45eec940648a7569b3e509d1d5f43"),
    ("valid/mathd_algebra_437.v", 215, "ea2471121a6fd82e2ba3611e395b32cc8d4696a88f0311bc00d11ab52c8a33f3"),
    ("valid/mathd_algebra_451.v", 441, "41c03ca1ff10c4d3b15ddc87c66daf09772acfdcb129251698eac83f7631b109"),
    ("valid/mathd_algebra_455.v", 129, "837d5ad61447d4c3b294c0e7f8a2e9de2262e291845c8d02d30795738796b3e6"),
    ("valid/mathd_algebra_462.v", 123, "7025ea83757d00234ce2c81de070171617af8e2940464da429ae9d4c516b3d6b"),
    ("valid/mathd_algebra_48.v", 154, "984d8cf5f7b077bab68b61034d68aaae612ec091d12c00ea7ec92132b0c7d051"),
    ("valid/mathd_algebra_480.v", 258, "b311d184d59984c21d8b6cdb23ca514e27b9fc0f770281846335f1cfb44fcd8c"),
    ("valid/mathd_algebra_482.v", 380, "1d5d6421e538c156c2a2647eee93b332c08cfce065912121687bccbc6859fd1a"),
    ("valid/mathd_algebra_493.v", 161, "3542aef7ec8d23b97431aa5943b4055ffa0da3917d139cb3e113c17658325e87"),
    ("valid/mathd_algebra_509.v", 154, "289a67a499896c6849a674ac6720c7645f5aec23db925d78994c6a511e40d1ae"),
    ("valid/mathd_algebra_51.v", 172, "2f74660a3691e1a65ae457005f10806313d51729e4a31d9c5bb0e9837453cb96"),
    ("valid/mathd_algebra_510.v", 167, "c7b22e03d0551e53f8fd150e4d28cd49accb19d5c3414c4c581c2b9a0099d971"),
    ("valid/mathd_algebra_536.v", 161, "be734933395c9bb48950c76bc40404641b5efe25f267a8a1c0b79b5a319c75a6"),
    ("valid/mathd_algebra_547.v", 154, "7abdb34a10b2b732619c121694520715943aba9b7aedcb590f194929e6aaf22e"),
    ("valid/mathd_algebra_55.v", 162, "f72c0ef7db27b498df2f6f1aee8518d1c468d05a1a6b3a70a5f714d94ca76962"),
    ("valid/mathd_algebra_568.v", 158, "73233956d529b1ffa0f18fd3f666d66432b96edb48c61f27148432f95274cca9"),
    ("valid/mathd_algebra_59.v", 151, "59575f6a332b33d2ac97ba88f572984d0ca34e9c99c398978e1512a2828a0cfc"),
    ("valid/mathd_algebra_616.v", 195, "c0709d2a98322f92392bc83086528bbb0b7818447c955007ea4babcd0b0ebd8c"),
    ("valid/mathd_algebra_67.v", 190, "d6d90330b5bb2c61f2bb93a5d888757e5512c8fa304306dfc31dacde9e26fd18"),
    ("valid/mathd_algebra_69.v", 172, "186b5bffa7b2cd7b840c9122352e7ef752e3b05dc9e8efc628308e3de647b329"),
    ("valid/mathd_algebra_73.v", 194, "909814027b2539e177e4d15699ec85c04f09ac51def0f6e9f28e350191e0d667"),
    ("valid/mathd_algebra_77.v", 287, "9d1f49313451abc12b5c27d3e0f3e016c1909bf5c3160aab5ae88f2f782fa444"),
    ("valid/mathd_algebra_89.v", 156, "aa7b0c3dff42276d4498f0744302873e6714903867c65a0c09a29e91e288cbb1"),
    ("valid/mathd_algebra_96.v", 246, "aab8a461b25a06d3e5717ae9e496d548bbabfdc58dd6a2e040ddcbdc3c9f89d7"),
    ("valid/mathd_numbertheory_101.v", 95, "7a0210ac5c56cbc73bd98c962e5ad6cd9ad2475be637c95b918ec114f27d95a0"),
    ("valid/mathd_numbertheory_102.v", 113, "547e3042a6533e0fd922b3f45a3499e538b195366932b2633f607934a71e3feb"),
    ("valid/mathd_numbertheory_109.v", 224, "92ee41e53b5622599fa5c05195956a0485baa2719fda3990d972917639431c57"),
    ("valid/mathd_numbertheory_110.v", 236, "3707fd89f790d299e6fd4e9f6b90ad056b1f3440f5c41fe8c973d3eeda3bc483"),
    ("valid/mathd_numbertheory_126.v", 289, "8ce98adae269138e3293aa1e75d3d0903b81a6f7432871104f032721ad58d43d"),
    ("valid/mathd_numbertheory_13.v", 269, "361543425d28d0d915ca0f33ace629fbbbe361019e452fa9a2e7eae67cf07f12"),
    ("valid/mathd_numbertheory_132.v", 99, "fbcf32b44deed1e6a0899efeb224ede01135814adda1d4cf90da128859e3b0d1"),
    ("valid/mathd_numbertheory_136.v", 117, "209fe1b5f3339f5c898caf27be1b4ef2a0e49682749da4f99d72e04a6d10646d"),
    ("valid/mathd_numbertheory_149.v", 272, "03d03e29ad555a8f2503671a21ac663fd3cd44dd3187188f5aeecc58ebaa1e64"),
    ("valid/mathd_numbertheory_155.v", 228, "9b48a7432c0bb84adab5f8711b92ebd9eec2fdbb91bc36b76f84d9257c4d86ee"),
    ("valid/mathd_numbertheory_156.v", 154, "04a12ca7a03fc26241ac44ad7ceff0363c6e4052811842976302d0488cf1ca7a"),
    ("valid/mathd_numbertheory_169.v", 108, "615bb14729f875e077b7ed7870ec734a963f62ed949f81c9b9a86521eeef4be4"),
    ("valid/mathd_numbertheory_188.v", 94, "b30dbb29e72b1ecc0622c3f98854d8f715ccba39c606dea8924e34c2a790c6ff"),
    ("valid/mathd_numbertheory_198.v", 121, "f6fb168bd56e0534aa8ed3c2efa092e76bea2e483e50b32537bda83939341168"),
    ("valid/mathd_numbertheory_200.v", 90, "c71604fe676123b78a63c0bbb014b89ab5ff2790b31a4988889ee9fa8f762665"),
    ("valid/mathd_numbertheory_202.v", 115, "c774e68b203a279c5560f1cefa0901768d9c113302a65bae8a4663ec201dd683"),
    ("valid/mathd_numbertheory_211.v", 181, "8420f6d9b267dbe2498888dce9497975bc3ec6811fd0b238bd6f79b2bca5e2be"),
    ("valid/mathd_numbertheory_22.v", 183, "6cd1ca696929a7803d97af20b76e65883f51860fa22e92d4d1a7cd621d8aebab"),
    ("valid/mathd_numbertheory_221.v", 255, "b245f4c6d0c1d92b8f4233f16bd280e87dc611cf7380b034fd0615436fe004bb"),
    ("valid/mathd_numbertheory_232.v", 280, "0ab34f8e393d0445598a7b597ccbad0efa3d91de56c35035f88b93fb06ef9ee6"),
    ("valid/mathd_numbertheory_236.v", 96, "148889d3f36a31e92937d47b6dca0447454c43170bc48b1db564633c92c717ef"),
    ("valid/mathd_numbertheory_24.v", 184, "ff2c1a476428cdc57e9a42f310be62dd7b143637efd252add0c38c47945a4c98"),
    ("valid/mathd_numbertheory_252.v", 135, "f236a45a1b8c574d5c0cfb8dd88832a8d33542284e51ce89f34152eaba4a15a3"),
    ("valid/mathd_numbertheory_257.v", 219, "9ac29dc620ddab369f68d5f6add0c4dfb8168e44c819a89482f6a404a54697e7"),
    ("valid/mathd_numbertheory_269.v", 145, "ed681adb546ba0915b38c7529000b16f2dfbac0460a473ce4ad513914d3eb56f"),
    ("valid/mathd_numbertheory_284.v", 194, "2c2e4262a399f285949ba2931388ad00525e3901ef7f64a0467cc2d6cc30e9f5"),
    ("valid/mathd_numbertheory_30.v", 178, "b95523a1dc933e924307b591e143ac79ad64aa0e28130fb87ecdeed836ead74a"),
    ("valid/mathd_numbertheory_301.v", 177, "6231e4bc753f675371b1429912d3282212ce6d755e5493abaf4ba89caa28ccb2"),
    ("valid/mathd_numbertheory_303.v", 291, "99b142a4ed33abf2114eb293ccb7b4559314908df9c95befb782b82b6f4da590"),
    ("valid/mathd_numbertheory_32.v", 417, "f1e806329997467659bbe1b9c4c600c40423d2c20979326e61d328a8d9cd46bf"),
    ("valid/mathd_numbertheory_326.v", 258, "cd7dbdc150b982ef2194da5efa84203256d192d2d32cb547199bfdf6a2c7865e"),
    ("valid/mathd_numbertheory_33.v", 150, "a80c2bbd3b75aeb8eac7549b19b42b9f802503818f7ff5987ef687d67d569ce7"),
    ("valid/mathd_numbertheory_335.v", 136, "3a81410da77d8a4126d34b70fa0ede7417c2d2c133be736175f7197e2ddc167c"),
    ("valid/mathd_numbertheory_35.v", 161, "a0e2be2317aacd63f397945528ff1f487f9f248ea6611a6aa048589daa0f836b"),
    ("valid/mathd_numbertheory_37.v", 106, "edf3496528a5b800bf8850cea81d404c5161a9ca432e3e66d690ebc76e5a7bd1"),
    ("valid/mathd_numbertheory_370.v", 159, "571eac1fc599715478f8a0ce34fa318535241b00abf7ca56e889cbc96bdd2e27"),
    ("valid/mathd_numbertheory_403.v", 319, "6962a7791f534ea9b89a82bd5ee06e84d816b8a78155d7cc329a47fdbe981e63"),
    ("valid/mathd_numbertheory_405.v", 342, "9c82af1258df68bc479d5716f0f6274c3765335b58851a0e47200dd187f989c9"),
    ("valid/mathd_numbertheory_412.v", 216, "476ee8b4983b58abfedda84ce843ed156b6f900f6cf25b5da4bf8f3b37ffb296"),
    ("valid/mathd_numbertheory_42.v", 226, "644e006bad82d5e62c953f282d87761210e183a410440bc8a1f85a2c1d9c33ef"),
    ("valid/mathd_numbertheory_43.v", 243, "24ad4c7bead7d5ed0a07cad392f4ae3d556d4336bbf8342125c9d19d3bd2d532"),
    ("valid/mathd_numbertheory_45.v", 123, "f383da8f758d055e1d96e5c8136b59911b1949f04f36f90edaf552b4e6efff44"),
    ("valid/mathd_numbertheory_458.v", 119, "d90777ba720682259144dbd6d7f33b9d2bce6075a933c1858a06812f5cfbc4bf"),
    ("valid/mathd_numbertheory_461.v", 223, "a9d81b38fbda87e37a3f9d0e9567b807639a3f51cef9aff16fd842b78aa2f503"),
    ("valid/mathd_numbertheory_466.v", 127, "75a6eefb957091511e3e044e354d2e94d20a2abc7dc110a0db412fb016eca5fd"),
    ("valid/mathd_numbertheory_48.v", 139, "7db0b4e7984a28c7a4214a2b841788472f705e53867115cfc73146c2e24f9f57"),
    ("valid/mathd_numbertheory_530.v", 355, "643093466a81efbb4e5c2b693ed066751f99a7f03bea66d24cb4c9e1fbb48a16"),
    ("valid/mathd_numbertheory_543.v", 366, "fe1402bdf194acb651c8286e262e93914b4b4e19c5660eb2ab5ec4d9a60d56df"),
    ("valid/mathd_numbertheory_629.v", 224, "14b581b7c3ca29ef24f5408cf396bf9fa8f2679e358a525c462679c37ce15262"),
    ("valid/mathd_numbertheory_64.v", 146, "8f8395cd9fa264be70e470b25e087cd4acbb6a72835cfd2235fb7f72e4540083"),
    ("valid/mathd_numbertheory_640.v", 115, "f91215b21f020959df7e4a961b8cd18fb4dfb9c92ac0c633a3c49898d002f1b1"),
    ("valid/mathd_numbertheory_668.v", 333, "bc573ef1bbc22816421426ea59e607e792379bf543d517ffde8e48690b7daf2a"),
    ("valid/mathd_numbertheory_690.v", 260, "356085992c90bbc09feacea0025ee662e7f06fa9903807b5fe213b9667772446"),
    ("valid/mathd_numbertheory_709.v", 457, "46a43ccd9e1fc287ea593a13bf7819eeeead27c5de5b7514f9b2fd6477b80dd9"),
    ("valid/mathd_numbertheory_739.v", 114, "4851ed6034012af0d499d16ab2855149b78e149b5d98d1d35d37e701f33d1043"),
    ("valid/mathd_numbertheory_780.v", 204, "4e94301fcec9c5cb696cd14ea53510942881372e5089d70a39a4e16ff5edb57f"),
    ("valid/mathd_numbertheory_81.v", 86, "656723da8c1330f1e90f93e982583f5ac393aa2b1d56417fc00af28b3e3e6dd5"),
    ("valid/mathd_numbertheory_84.v", 155, "992a4c4547c3ba1a3a27aa07409cd5fda4c1deffcea42fadec2697987140ac4f"),
    ("valid/mathd_numbertheory_92.v", 132, "af4f780ec217b1c0c2e909bb4d22dee70019e476534bfffe90e084686048f241"),
    ("valid/mathd_numbertheory_961.v", 95, "492818ad60a6a043989786c5b38dec02540e174cf5b35056d1087ec70c62e050"),
    ("valid/numbertheory_2dvd4expn.v", 136, "a281dd4d380ae93db49ea589368032ddd6c908a0a7aa7cafceda1e94644c9ee9"),
    ("valid/numbertheory_aneqprodakp4_anmsqrtanp1eq2.v", 333, "2a2bb2c4d69581e32899e9a36f93faed24327222756a75ad076077372de3c71f"),
    ("valid/numbertheory_nckeqnm1ckpnm1ckm1.v", 261, "3edce77092d8ae88a9e532731d7cfb70ecf272aa58b4fe130dea2819848a7482"),
    ("valid/numbertheory_prmdvsneqnsqmodpeq0.v", 211, "7cccec70712d053f1dccb92f24db5790737b568f64bb1f7bb88633aaf24b1b01"),
    ("valid/numbertheory_sqmod3in01d.v", 141, "8301da352426c552749e0faa4dde90ea92eae35d2fe652f4eb5985ebf293ca20"),
    ("valid/numbertheory_sqmod4in01d.v", 147, "18114828dd45a144738146743bc77daef725736ba5a0bbf4b1368996309dc500"),
    ("valid/numbertheory_sumkmulnckeqnmul2pownm1.v", 551, "b21a7c32b371689e3ff2606e481055b943c8e0834172379fbd1f77d333f68e85"),
    ("valid/numbertheory_xsqpysqintdenomeq.v", 180, "6abce83664bd5b292e9cf023f497546a1a34232d1b4bfd868d1fa75b54aa371a"),
)

_SMTLIB_ROWS: tuple[Row, ...] = (
    ("submission-2022/non-incremental/QF_IDL/20220214-RVpredict-BohanLi/RVpredict_11.smt2", 11088, "33608f131cca824f558688dce15351678d992ae6e21c9a04d67745ee535044f4"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop10-2-5-5-2-4-12.smt2", 16515, "8f672b7238494993639ff11b00ccc44e9bbefc1b32a881aa80b2c8895b522d98"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop10-2-5-5-4-4-16.smt2", 16523, "edc290e1c30b3daf6e07480c8064aae9d96a210721a3a5ae8672772ab4569e8b"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop12-2-6-6-2-4-12.smt2", 23534, "99677a54ff33736184b9d9a008a03985c4c57ca8c4873ea067c388301cc46660"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop12-2-6-6-4-4-16.smt2", 23543, "3562510870b79f0de0aa72e40bf5f22b8774a4bf38cbc8c5d11c674860829671"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop14-2-7-7-4-4-16.smt2", 31843, "7ff00b825905bf5adccc262d5eb15b7ee20234974d7fe5d0a5aebd56681013e0"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop16-2-8-8-4-4-16.smt2", 41423, "ffb42f788c2bed15193d514e405504a89cea50414a4c58c4c702de3d5e208581"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop2-2-1-1-2-4-12.smt2", 1409, "8081b3b862efb2e62f145dde58103cfa3ff23c9283176efc6040c872abaa9396"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop2-2-1-1-4-4-16.smt2", 1411, "5a3c192e51ee55c943830f5bcaa55b5450b44eebcf377e1d9332dc7814603784"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop2-4-1-1-2-4-24.smt2", 2751, "64c55be3b31054817df93699314a1373b8dbb384b0132b877f9fc63772887a3b"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop2-4-1-1-4-4-32.smt2", 2751, "1ea16ec2a074d986ef6c77f35653280142483adf742c66780a8ae668f46ba1e1"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop4-2-2-2-2-4-12.smt2", 3380, "adea0f8bdf2b7a0385f709e0c0a64ba661596edf0f578638b2134b1678a86e07"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop4-2-2-2-4-4-16.smt2", 3383, "986eeb44fe81341a30f277a1c1633c72209993b0ce80bd09801451ce94b8fb86"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop4-4-2-2-2-4-24.smt2", 9617, "063c45927cbf1db69e0ebcec6886ff2653697b68ffab1b09e1921e905294c5b4"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop4-4-2-2-4-4-32.smt2", 9615, "11cc1f1a1d09b766e386f8b63a0856987b660eb83dce11ee8a8e8c17d71c4e81"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop6-2-3-3-2-4-12.smt2", 6534, "ca0739e20291f0482d91769e199966fcd30b4c6f51cf78bbc26c53296b5d1e73"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop6-2-3-3-4-4-16.smt2", 6539, "b0adff6a267b4ad6e77821cad59b5a9a137f6144ab236c9c6ed1f1019f118ef5"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop6-4-3-3-2-4-24.smt2", 21215, "63f07f9244869133727b13ff77bed019c128653129932067812a2e8ad2a3429e"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop6-4-3-3-4-4-32.smt2", 21215, "d7f7ff426db3763252d917bae51b5ffe05b6f5722b41534045fae468b479b40c"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop8-2-4-4-4-4-16.smt2", 10879, "9649c2745a4bb21985c1c6b7b8e86af3502166b0129f3b4288ca3a57394912b5"),
    ("submission-2022/non-incremental/QF_IDL/20220214-jobshop-BohanLi/jobshop8-4-4-4-4-4-32.smt2", 37551, "1ff3c3b4a9d93cf47996bc4abd32384e514ed1a2633da5b58d1eb683aeee97b5"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/2PhLockVParam/RC-08.smt2", 1324, "a17bd9224920b752079525e933ebf61905ca1589ead55a27e4903cbf69a8220e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/2PhLockVParam/RC-13.smt2", 1344, "5ae5f4e17b66a79d54ad84f874e65bec598f73e9b86bb9a7aad372fb5e681f41"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-012/RF-01.smt2", 3156, "d4402c603f4874dedb6938c2bdbd75b2c9dc49978f97c7708b5a68e433373152"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-012/RF-02.smt2", 3085, "6fcb5fcd2fbbc164b1699039fdcac97034af716c8379e39265fe43baad03a91a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-024/RC-02.smt2", 5485, "984f2334238db5bee6b2c575125d2fa380b6c8ff6ed881646793ac9cfaf6c512"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-024/RC-09.smt2", 5463, "96f2aebb5ed5a1fe21a948dd559cd5fb6fa5ddcaee608760fff74be17da2d40d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-048/RC-04.smt2", 10203, "10d605da914b5069711cf8dd2cf3879ab5b822f679df927c735b26f0bc3b0468"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-048/RF-14.smt2", 10154, "ea7dde9c8077b1aa7c6da87c573493e1d9ac23b9c2c8703ae9ca27a906b2970a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-096/RC-12.smt2", 19685, "e132347e7c66ced2faedae491ca904c306fbcb35eb90fefa4a56b1e673eb8721"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-096/RF-07.smt2", 19730, "6c60eadd5ec8b16ab9d4c5bfa5f81c20e5ecfed30bdbcbe37b99d5c1b1c8d704"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-192/RC-02.smt2", 39692, "ecf577708b8957b8b8f65814bc7bb4221f45a4e92ff2f0f7b5174d75c5c71e4b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/CircularTrains-PT-192/RC-08.smt2", 39724, "33da5ef63acb8e98a889da8edeb23aec0605aff01c462a5354943807336985a2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/DatabaseWithMutex-PT-02/RC-02.smt2", 6536, "c3a7c50ba4b61eed03f238244219630ad4ee5c75f7d294f9f9d0629ecb32a753"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/DatabaseWithMutex-PT-02/RC-12.smt2", 6203, "925ab0cfcca17e3a6a33bedce57317372f612b372799c136fa38b9d57e217af3"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N010/RC-15.smt2", 4084, "3601bfc299db728ac29df9424a9dbf816214faeb847ce6ec7fc6228cb1b6acb9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N010/RF-08.smt2", 4152, "4ceec40b75c060b0f9539fb42e82b1908521f049fe2e2f3b24f181bb4495eedf"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N050/RC-02.smt2", 3997, "37419cf22cda70bec08d0bee0707f79cc47fa9437abd07f89554fbda72de3500"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N050/RC-13.smt2", 4002, "cfaa0485864a4690c123bbe5f5b7882512de69c1b17f4ae6b1d18d11a42e7352"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N100/RC-02.smt2", 4072, "48887119fe3b8f617bf4f3ed96f4bd0afeeb8cbe80317dfa487216771890001d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N100/RF-15.smt2", 4052, "d3d104c4246cceb2ca34157798ee45197dcc98448e95d7f5222b801a0769cbdf"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N150/RC-07.smt2", 4143, "1ff324fd2478924368590c0abc03f71374821d22c2101b3abdfdb0a90eb9d565"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N150/RC-14.smt2", 4052, "abeeaf56fd0a25747d240ad8ac6cafb031551f21015a04412d4c3565ddb2275b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N200/RC-06.smt2", 4035, "ef0d971148655845fdc90963624fb5f7e5f7f972809a99f854971ef3d89c2709"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N200/RF-07.smt2", 4111, "d9e740c2aff728294e695462ff8421802cf251ed339f4711ca00a1e69304dd91"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N250/RC-08.smt2", 4125, "e59c943093dc60aca9dabc0e08fb0bbbc3f8be8df16e662f4a662bdd51f4cb92"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N250/RF-13.smt2", 4029, "40ff578bdbb518174fdd911938788a6a1e2289a1329b0fd2d39308cf9c28b49b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N300/RF-02.smt2", 4165, "9abae50e4d48395b34d48cb6c29ab0863f3e577456bc55ca640a4bb33039ba75"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N300/RF-11.smt2", 4015, "da87029db14576276a633580c6d46c72528c6d36aa167bc063b7e110bdcf6a9b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N350/RC-04.smt2", 4050, "ced38030da4765658e57c84f0dff756437a264f0f8a856c89d6b4bc532cbcec3"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D05N350/RF-05.smt2", 4091, "82850415accbd01d71c3aaa2a9e3bf47065ba3dc6de021aad3c63270ee3a51be"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D10N010/RF-09.smt2", 14447, "ac469e1873ed611bbb84215a6f06525512b28f702a3bab9022304e6137c845ac"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D10N050/RC-01.smt2", 14452, "89267b4c2e11d74cf2dac533b002cd773c0937cad0953832fe009d874a6f9fcc"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D10N050/RC-10.smt2", 14541, "3fe65242b854a05683dc4da2816a9724b23a5975421162b5565c3470bfc82f08"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D10N100/RC-02.smt2", 14520, "47b5aa7b96334be674251edc6fc0ae9182abc113876f9834c0ba23fa1d6980b2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D10N150/RC-08.smt2", 14478, "0ecdf0d788a87638b06546d6ea5563d51a9d8f402a34ca554a6a39800b55d000"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Diffusion2D-PT-D10N200/RF-02.smt2", 14408, "ffa517795ed4837ee0126d078fac9fecfe81370baa60fc544680023eca929303"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-000001/RC-04.smt2", 2182, "1b444a99951589fe50b1ebd7bef37f40a2903fe7296d9c6c307421938e1af011"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-000001/RF-04.smt2", 2173, "74a29fc43378c1ec9030839bb5fec57ce83c0f8975f730961071fad9695a76b5"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-000010/RC-03.smt2", 2181, "c461f6e9933e9638211b5cf9a3601d43e1474860904dc7b41218fb59bd0cf249"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-000010/RF-09.smt2", 2281, "fb6138b05d3547ffd6178e16065e95a286f5d2442c6592185b787667ff7b25ea"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-000100/RC-11.smt2", 2274, "50e622d59dce0e7591df8f12ac597028980473dfaeae6497a4e7998be44b2a2f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-000100/RF-02.smt2", 2222, "47e2da22c01cf13526a239ddb7f083ab694738476351b6ef97e9e22ae36b0edf"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-001000/RC-08.smt2", 2265, "c9ef3e6cb9f783924fc565eca759270f7b4400d1a24dc6cf6006112de3b9b308"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-001000/RF-13.smt2", 2393, "b7079159f83428fbaaf5b6dab4d3a3e11f9b5bb1d58889ba0c76ceedd0679b08"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-010000/RC-04.smt2", 2243, "de2d4b1e861e5026378b6f41b5f1461705a0ea1d91771845b66ef1383c739bd1"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-010000/RC-05.smt2", 2231, "3e894ecc79e7aa7ba3efb0b6ba6e34842071d20944b5d9c5a3f2b651706d2876"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-100000/RC-06.smt2", 2220, "070519c8e0996aa5baea6743f218d108e22556cf3ac7958cc592126557ce44d3"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/ERK-PT-100000/RC-15.smt2", 2187, "2f275932e8cf51d71a7cf4e9f372dba4587cc7c6adb36a6a927dccc8ebd3e09a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-010/RC-14.smt2", 1163, "bde9b55fe8298368bb8e87b1aa034b04de89f38143465b69cee8337f139c3779"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-010/RF-07.smt2", 1354, "b574354575b34900463f38faad42546b3a834e1b5fb8a2360b8780c7e3aec431"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-020/RF-02.smt2", 1906, "051fe6b634bb81b2896c3130e60c5bc081ad10de0ea43538ac4cbe4d47dcdef9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-020/RF-12.smt2", 1946, "d6fbee6e6139f1d98bd289f9c9342b17280e82996b8a9e650af339dbc50fe363"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-050/RC-06.smt2", 3713, "b8a5bc474413b120f43aefdd01aef628772d120105c07c91f7f7fdb60d8cc27d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-050/RF-00.smt2", 3885, "909335bbe2454a5e4fc50ad37c90155173a6f660a6c0b9fbf21e333c260784fe"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-100/RC-14.smt2", 6906, "799f00cff0c9f952e3adb79632ac50764073048c12b972f6ee8f1f85f89f3fb5"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-100/RF-15.smt2", 7185, "d6beaa63e52c33be0fa4dfbe3ac4d1ee58ecd468e2c9a55aedc63ff3e55465c4"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-200/RC-10.smt2", 13667, "066941239dc6a042905e4ef89fac26d39ebcf3c2710154ea08c97301dea5a694"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-200/RF-07.smt2", 13831, "ea03dde49fa69975dc6fb865b2c3f023a79078c55130c2f02cabc2d491b9c584"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-500/RC-05.smt2", 33712, "4e526e2d0b1b8973da243bbbde5d69a865a6b9714a7be80097f3dec63181ff39"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Eratosthenes-PT-500/RF-13.smt2", 33718, "102017d0e24598cfad881e022d7dfc4f6ed3c9852708a79f3e5c3cedb93d784d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00002/RC-07.smt2", 2761, "888238854a30541c54f7ca25beef9db96122a5307db854620b0057aded24d250"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00002/RF-06.smt2", 2806, "bd3a7bc867171845dcad07108d636dde5b35c31c8f999202905d43f8782cc6ad"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00005/RC-07.smt2", 2418, "42cb444756021d06a197323509438a553ae8cf0a215d612445597fe453b46be6"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00005/RC-09.smt2", 2387, "d1d7bee07879b61075d90c5592dc9045b423b6c18d4cd18ee899a79c39d085d2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00010/RC-04.smt2", 2407, "1228380378bba145ebabdbb318fcb3b3403044ef96243ec190fc723439c96e48"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00010/RC-14.smt2", 2433, "9fbeb208e0b6182fc4ea8bf569c85065e7d5eba7db19fafdc89522bdf9717326"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00020/RC-09.smt2", 2449, "20bdaca19fe7539e14056e0a9f216acf8b706295ea8b0038a4c61e690f5c208b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00020/RF-11.smt2", 2423, "f919de73b1df61f8d397dbe95ea949a8876b17afe4141c594a7b36425ea7af5c"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00050/RF-06.smt2", 2457, "e16595b962b3bc25705ec924eb67ba969b0a8b93342ef22080c49d522be1d5bc"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00050/RF-14.smt2", 2415, "e179effca4cb11e050f5555be1516a7eb94c4b5a798041518e059dba9cd98473"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00100/RF-10.smt2", 2468, "a67443fb6310f1a83c9d13eac54f7c896d81757012f0e1f951c01c54c7369892"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00100/RF-11.smt2", 2367, "89bd49954089cfb681328b6971a34d9917c9c4b00a749ee409da4b15f02ca818"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00200/RC-09.smt2", 2416, "1d0876ab46cd4ee6a455974cfaad3c861b013907b5e1ed0d740cf59ae2206460"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00200/RF-15.smt2", 2599, "1dd7ff9a0db6d267a659c1c0f80491df8c9d8b31d6739381a180211c19be8820"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00500/RC-02.smt2", 2380, "2a0f99cde97c7120024f49b01d0d51ffbab863e0393cb66b7ed068eb8ae36684"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-00500/RC-08.smt2", 2409, "90e2fef35250d81de193c8469afe36143258a49247e426a3499c79f0366ce300"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-01000/RC-15.smt2", 2384, "69ff1685bb856652f76943e68801e1595e5b16c26de1b25259c4524b405c715d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-01000/RF-04.smt2", 2391, "ee6958ea3bb5a50ac97e4b032ac7447006f5015cbc57da0ec82c1a73ac5522ac"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-02000/RC-05.smt2", 2473, "6cb90ff216bc695b6c810095e2d37ed0073897703997f2e0024736ac344f8c3e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-02000/RC-15.smt2", 2422, "27a68e5de5db8bd019fe20f42365f0359c9f2784164fece411fa3feb33e3df3b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-05000/RC-05.smt2", 2413, "1042e427b7d599361fa9e4ff3d5af851af61bdaf96ae90690abd2ba2b104afec"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-05000/RC-07.smt2", 2445, "c4421bd4cf5d3b872a461ec4ffead6bb72bc301415b1e050dd382c7cc1cda193"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-10000/RC-01.smt2", 2435, "4698a51e373f59dfe585db21a880a5ac0725df07a181d7dcce215d9097abe607"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-10000/RF-00.smt2", 2377, "e91050c4b12c2df031a45c5ee6884607ded6f44661a0d133d2668e354dafa8c6"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-20000/RC-05.smt2", 2373, "827d99c2fb8de19ebfd82f6085f22b75b9d04d5441f81e147126a4b5e5c5b208"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-20000/RF-13.smt2", 2436, "3634dabdeefe57f4e4b4483027658b173cfec72638029e70a57509902142a6b5"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-50000/RC-13.smt2", 2471, "d6e6a660f2f0e80b2612b77bd05c9257020967c5efecd10706ab2494ad977502"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/FMS-PT-50000/RF-10.smt2", 2506, "b7a6b3475a9b6450f09d6c8116c80de510de1184ee3334fecb101105dd469e3b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00002/RC-11.smt2", 3262, "2a3d1ac9d0d9811f0f264d2f782d5068abdf0d048cb1d4ea57a7558b08acfdf3"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00002/RF-11.smt2", 3363, "2482a1af065b931e1456efeae39843abd19d7f6e13f131ae5c611677b288890a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00005/RC-15.smt2", 3272, "48ca1791a52fdf50f4863a6f2212bbf8088eb52f4a8237d7faebe75a67aed5d2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00005/RF-02.smt2", 3298, "822315b7f233dd52e91ea2aaf45d904e30fbf7872306645318cc19648cfec511"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00010/RF-00.smt2", 3416, "2379fa3d3fa01ac032fd4bfd32d96a8ce2f43adc1fa9d9f4a0fec4dd50482f8b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00010/RF-13.smt2", 3324, "84fa9b5d85b316640e515ef3a0164b0075460d0334d0b098fab32339a4c45090"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00020/RC-06.smt2", 3293, "cb54c9f67202969d17a4c2de4e29c26293dbb135e24c27793ed9de4b1e3bf67a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00020/RF-01.smt2", 3273, "5f147db87ace5e9e1a7b6faa8d55c939cc19c097277e6ed380ff48e1fa2e20a8"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00050/RC-02.smt2", 3186, "deff12fed1ccde1d19e64fb5618de08674d96fb51b221321b52d04ab9756c781"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00050/RF-08.smt2", 3304, "336f09b77c180e3e8745773a2aaf7f77be0f3f1e235aaa3b0566450fcfe9a8b9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00100/RC-02.smt2", 3191, "cc126914152b133b7d460668e86a61ad56921c866091d680d148cef420bfb371"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00100/RF-02.smt2", 3303, "a2358f263e7c787ede1ca94a4e2e56ed2abc75a846e74330530aa41db40038e3"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00200/RC-01.smt2", 3181, "ffe3722767cba5d61cea5b5d0083c39f8e7d32ca0349de5c6ac5c201348ad919"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00200/RC-13.smt2", 3191, "6208f004e213eb089e42c1af28ed80d6324e6f28ca9e41862988352db2ba33da"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00500/RF-08.smt2", 3249, "867613707404f72417c178ecefccf24e9f2d8f36fcd1d7bc0e45ebc97f527a95"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-00500/RF-15.smt2", 3298, "b9d28864a4f6473d8df598d9460197d840f409344077f3aaa0ff48a75f7892c9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-01000/RF-01.smt2", 3264, "503d3439a2e553ed2e6fba03fc2c423fff31c5a3d157e863f5abad5bee11926f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-01000/RF-07.smt2", 3340, "7b76f5f7a880ee257f39e8b40587e2b8794d74e459c40d77c2647b2f83a2222d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-02000/RC-11.smt2", 3250, "b867c187b261a57a89873ebb611c6cc23945686b0bfc02d06c73d639a2945583"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-02000/RF-14.smt2", 3266, "23208e9f07c6c9c57d3fadf20c80e1d33b050cfdc781501092961c101aa6f774"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-04000/RF-07.smt2", 3390, "24a6e38ecc36f4d92e5fd08724b8d60b15fbff0a040e37680a53a0319dbdd29a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-04000/RF-08.smt2", 3334, "ff8e6cf50a6df212d1b5d10b77de80dc2f3f1dc0de732c3769de64eca0a0d0ae"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-08000/RC-00.smt2", 3182, "c06ecb103fdb19ddf353299f38d10144da90066fe950389c2c642edf070b9832"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-08000/RF-03.smt2", 3255, "4432d537b5476ae39ec88a8c51cb7f2fcefd21e12bbdea1178da23118ed4d78d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-16000/RC-11.smt2", 3247, "4ccf8f62977a03a0d5f73646098faf8624e8fb4faf649f3e5ce3a8e508c5848d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-16000/RF-00.smt2", 3314, "aa02e4d5799b424a60d40917871b61886489339d96eb2572a01f228875f7e966"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-32000/RC-00.smt2", 3191, "37efdaa1384aab30d19eb963b9c62e0d89de3a9f910ece5dc629359c149025d7"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HouseConstruction-PT-32000/RF-06.smt2", 3391, "8450c2509a092cc6fab7f106e465ec9527cf1c2dfe6a6b9ffce06f026d57fbc8"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HypertorusGrid-PT-d2k1p8b00/RC-07.smt2", 2625, "57a853d2bdffe42e9a6a671fbdb7648105c86229599f7690c4ede73ac8b6d244"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/HypertorusGrid-PT-d2k1p8b00/RC-10.smt2", 2602, "7df89b76db5e5572b936c53b1ec6afd5fe1fa157a0551cddf209aecbe8309697"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/IOTPpurchase-PT-C01M01P01D01/RC-07.smt2", 17721, "0fa498d394328520656e4d779244117d882c8d9b6c364d214b425cdf0f82db09"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/IOTPpurchase-PT-C01M01P01D01/RF-02.smt2", 18008, "572149a8f0d11b6be24f07c5c25ff2304fa6f71e1b8ab43a48319e645d3a2422"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/IOTPpurchase-PT-C03M03P03D03/RC-06.smt2", 12944, "10684e31064e4b8049d0a48e578cf3c8734a182d689b0cd67a442863bc92d992"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/IOTPpurchase-PT-C03M03P03D03/RC-09.smt2", 12921, "5d0301237d82d7b0bff72ac92d25ec119d6c83adecea378c910f05f0fcbb3b5a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/IOTPpurchase-PT-C05M04P03D02/RC-13.smt2", 12982, "128fbd7f40d6e38af1c7b50b98d0354214abb220b454da93d77e3ea1858020b5"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/IOTPpurchase-PT-C05M04P03D02/RC-14.smt2", 12967, "166e94db10832fd9c9b1c0612d527cc06bc7cf3e9c4c6f2d8647079316ae0652"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/IOTPpurchase-PT-C12M10P15D17/RC-11.smt2", 12928, "d897e722f7474150f8569315ef5ee067ffb90f499c01355ccb719f7aec2e975e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/IOTPpurchase-PT-C12M10P15D17/RF-14.smt2", 12995, "d2fcc982a9e4be0f2a9711ea0a18aa07e202f8c2b4a55aad612c2cd2f72b307b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00005/RC-02.smt2", 2274, "fb4dacb743e95b409e0b721e6e70202b21391052223cd5848a3954b912e3da56"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00005/RF-02.smt2", 2329, "9ed5189eccf6b7bec7c6063fbc862bc5e08988d6e7669c4261bdc5ce5d892b6b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00010/RC-15.smt2", 2284, "ff225f0bf63dcc275254c715b69f2a023d79164c4c63c14324f0dcd8b53c6c7f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00010/RF-05.smt2", 2343, "b58deea27009efccb2bb887db8f81beae1e60a5c024049be60fdb918d362e809"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00020/RF-02.smt2", 2309, "2fc9647fa14697d52c15b1e11244f461ca0a215baf2e11a91f1b00830f7e50ef"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00020/RF-04.smt2", 2322, "272161bbe3a52d4da39cd09d80ba86c0733e4553e38f273a745d8b8b63656d86"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00050/RC-01.smt2", 2362, "53e1b914597ab9cbde42697c5d284dab06226dff32a79524f488b832ffc7ca97"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00050/RF-15.smt2", 2348, "779cb9127fe9df87c742b6d4d8c6b1d599fda73698a21fbf300e4275da1dfade"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00100/RC-14.smt2", 2300, "9d1d9edb5c2d6492a3d37a740b963aab096023439c8e1a904c33b2ffea984717"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00100/RF-08.smt2", 2343, "be711014cb9b231a7cb702011042aea3721abda0d0a1944a041fcb1aef8f17f4"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00200/RF-07.smt2", 2338, "43d3c7c755c386327996eac8ae583866462fa5c77a051f3d9eeeff4cfd311d86"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00200/RF-12.smt2", 2314, "d6b2c2c93016ded42b66a01ebb7ef2e6857a9f872ddc33e0b055594381cf79e6"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00500/RC-14.smt2", 2253, "2b06519888eb9ee060a992dbd0668df9d566883b2aa65e0a1f1ad0ab2b844e0b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-00500/RF-03.smt2", 2334, "3d223acb13864457b0ec1e1a09f8a617d3dcbf0d80c5bc19c0fb3a4b2e049e51"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-01000/RC-07.smt2", 2324, "90ce98878ca84cedda941cd222deeb7e158d7a86b292eb5de31454f68486c9d9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-01000/RF-07.smt2", 2331, "e1ffe1f0888bd66e41f4b27db76f2992a6a69bddc540ceff838d9d28c58ccbee"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-02000/RC-02.smt2", 2307, "12471e09ffae8555218c8fbd47fb5ce7d7971cb8143c38e3bb7424824d61e2e2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-02000/RF-02.smt2", 2324, "ad2a3de2321edac8b19c96b7272537ed190fca79801cfb4af0a453539171fa2c"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-05000/RC-06.smt2", 2319, "3bf9356d97b8e2b7013ec2e59da84fa2ec6c59ede8c3e9e4b2427a8c41e5400c"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-05000/RF-05.smt2", 2383, "6191c8a0c9b79b5fb51419484bbd75c25b91499949a8019a6e4e747b82ff9b77"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-10000/RF-02.smt2", 2297, "b93ad543cfa8ee3585f3af5c6d9d44894ed8750ac82587021df898e52bdf0afb"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-10000/RF-09.smt2", 2412, "d679a014a02cff9c3c327e13616b0848182a8bce66cff1aa086819770ee3b572"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-20000/RC-00.smt2", 2301, "5490ed11936d62cda365ca34757bcaafebe000556b7e924ddf3e662ca7666341"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-20000/RF-13.smt2", 2329, "f3a4b1b60f8a12a4704527370ef6ea8f3dc069c9057aafa33787f9dd86bb5c90"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-50000/RC-15.smt2", 2252, "e522c1acffa3f6ffcc3047d46790a88fe9ca42560c131a2b0871c00d8c576224"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Kanban-PT-50000/RF-06.smt2", 2453, "5ccba37dcbd0edbe039e74a68ced9cdae48de9b329660aba53e77530a7ca7c4e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00008/RC-10.smt2", 3883, "d5eedcd2bd3e24051ec86d9b269bae6c1ac6225feb9c62d7eda1f6997ad3b2b0"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00008/RC-15.smt2", 3927, "0de8bda7f05a891dc182abb9a1f46566b6035f11cb682f450750db78a11a1be0"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00020/RC-00.smt2", 3953, "e274d2bfab6c49d0bab18d284a6ab7ebc6c74b11f9165f43e41f0938dc05b973"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00020/RC-09.smt2", 3919, "a94edd92baea361877456ed99f9dd58bc374aebf2199e9d0fd21aace3ec0493d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00040/RC-13.smt2", 3903, "3e3099ecc579a9f43e9acb02f2909ffb352ce6ab902b9cb55ddfbbe6f5f25412"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00040/RF-14.smt2", 3908, "e84b870f19434bc7a4f66c5cbfdc7ef24f95f898175ed121e4c483f8dab6f3f7"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00080/RC-12.smt2", 3972, "d6fe2ff8cda94129d3a2092690d16dcf35f089086c103d36b6652761b6217fef"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00080/RF-13.smt2", 4001, "c048132a0f6233e6a84459a3ae1fe2def9a331eb13b8c586d96a2629938541ea"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00160/RC-04.smt2", 3937, "fe81975bda8cc00f68833948ccce09acf83efaf1342d9228cfc5035323b76ad3"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00160/RF-14.smt2", 4052, "209a7f370ead45e28bc8b54723aee873d2b141ebcf94c3794121f0ed1fb26532"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00320/RF-04.smt2", 4007, "46fb962078bf097852c86270bef99c748371a8e1aa26f07d55b5f0ef65d3203f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00320/RF-09.smt2", 4001, "183385f824328a7d9936b737d3165ea9048bd5664724da9bbcabcef68574e4da"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00640/RC-05.smt2", 3873, "2a5729210240c937116e7d4bb14fb6e32a250f11f6a7974d2b9732be4f089e97"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-00640/RF-07.smt2", 4020, "873980ef1429a952dd3c46ceffbf80b559864a102e1d2f0301d3bc1fa63935f6"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-01280/RF-00.smt2", 3967, "2edeebc238c67ce316206f1e94a60793682868b0784f402e5de5fa200b3e28db"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-01280/RF-12.smt2", 4129, "ae5a4e92ec3e584420deeba0b1f9db9bccd804af156ffa79a2ed52e037f9c986"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-02560/RF-01.smt2", 4063, "b2b3f7e9397adfafea9f17112f68d0f0c46d90446eb7a7a253d22f31c1d740e2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-02560/RF-10.smt2", 3956, "58671d93c02afda23e87570d4646df30765f2809255cf43df9274812f04cbb64"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-05120/RC-14.smt2", 3962, "9e8872c23817e4e51bbfe979b167cf5e1573ae9d464277532c03f9b0dbf4b959"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-05120/RF-02.smt2", 4099, "a4379f0930c4e21245e6ac0eb0072f596767c13e3d8a13a646ca551d48e0ad99"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-10240/RC-03.smt2", 3933, "400e534c261a27ef1ca99bfad36398c2b8e8941f066f3efe70a4475611da246e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/MAPK-PT-10240/RC-13.smt2", 3989, "56a5a1f0d676c3e090ae859f309a98f3ef3fc08f5d1d4274361189cf14790775"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/NeighborGrid-PT-d2n3m1c12/RF-08.smt2", 1766, "612223faa75067277dbd5672deeb54bb61ef663027fd1d2e53baca4894560f21"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/NeighborGrid-PT-d2n3m1c12/RF-13.smt2", 1698, "7aff755cd8012ce2230a26983edeb2884a1faed88830b7f895425170031016f5"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/NeighborGrid-PT-d2n3m1t12/RC-01.smt2", 1715, "82e06c93fce40beed55370aecdc71908bee82145dde0857527032d0645d286bc"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/NeighborGrid-PT-d2n3m1t12/RF-07.smt2", 1768, "1d108dd0cd3fe85af1786bb33b7cac6baf4a2e420dd0d96707222a4f99fa33b0"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/NeighborGrid-PT-d3n3m1t11/RC-06.smt2", 4055, "803541d9480a39b77ddd179d5c3e58d83b7d5642873020beca6f0d26a0cdfd17"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/NeighborGrid-PT-d3n3m1t11/RC-09.smt2", 4114, "10cdddde304f38cf6ba58d9c8997e368ad92355087e6109775220741fa72a1c9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/NeighborGrid-PT-d4n3m2c23/RC-06.smt2", 11638, "d0901660c3a3a9974280587d51ab7c11271999322be217e6485c26b90bb07dc2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-0050/RC-08.smt2", 18999, "49ee5cc1c383b2341b90cbabe63dc030fb8f8d2913ef1e26758836bfaad67097"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-0050/RF-08.smt2", 19064, "713b96f8698db99358c8df4ea58939fa00279120dbeb11b4eb41f68f8543e152"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-010/RC-01.smt2", 4613, "9fb73b57ee33ef34cbbaff2070987b985ae5b86dea422bc484b835b5492c084c"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-010/RC-12.smt2", 4308, "927502b619334ac87d5e256823f70c169fd9a07144d6f5170500e87a33c61e4b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-0100/RC-01.smt2", 40129, "858c7b5cefe312e804f27edebcad147b2967406a729b3fffc3f6f8c2a4f10525"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-0100/RF-12.smt2", 37865, "713d59e9ef625047105b7f76e5feb364101fdf57e4e804fd30c44d335dee0934"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-015/RC-00.smt2", 7795, "4efd1152c1b6bdc37f95838feecc1dbc9feb6e0a48b4d70d4db590bf2d899cfc"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-015/RC-03.smt2", 6617, "1ca0b785ecaf8dc255fc243807e10b63048a1affe26f01746902d0fefa6c6f9c"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-020/RC-05.smt2", 8472, "3d46b4c76f3d3165864dc0321170765e5649d7b0e2401acf34094514ee1fdb95"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Referendum-PT-020/RF-15.smt2", 8041, "4b2bd2e5683cad4a48045e3db15abc6c7e265d4dfd53f5b85b34b66785747135"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00001/RC-04.smt2", 2397, "5848c93426d7a85427e3bc921a6754027e1f300495e5a0fccfb7490aa6999c4e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00001/RF-04.smt2", 2523, "219e989ef3b86fe7c5a21ab61ecdffb7229212bded72adb48b63b98e8947a3ba"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00002/RC-11.smt2", 2427, "098c5497313f7a1bf33e904e86b95537a4429088f68a9012d7c918693f1f01cf"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00002/RC-12.smt2", 2379, "0afbcf6c9aafb8f063c80cb8ed92a87c1da232e31870096d274879d0c6b5a1f1"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00005/RC-02.smt2", 2387, "806ab83d98e151583be9cb0d06d8f4520713ee6df1a828dca6224a214e30fba2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00005/RF-04.smt2", 2422, "b84350a0dd8f108d65efd3ea616e89b7a52114090c2387f0de5ab21952f0b85a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00010/RF-04.smt2", 2514, "fe5d2ed86590e44c7af8d55a5ba1d38812fd5ad47195417dd5ddc612cb26e547"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00010/RF-09.smt2", 2535, "22fedd48ff31ccdc8cde3b31aee7f3f65a292a37391dfd84f1e77166a58b4c5c"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00020/RC-05.smt2", 2383, "e62a20aef1eb22920f229763c7222c14aaae7d44a83b37115036a6f677dde53e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00020/RF-14.smt2", 2609, "ca696cbafbbe6b348c02c47ba0b877077294fab321483f8eca6e09ccb193dd30"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00050/RC-13.smt2", 2400, "88af2edcd876bfc5ad623f515d2792cc90e74c9ad4f21089e1cf4957db60923d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00050/RF-01.smt2", 2501, "30f5a3ae8a75d02f7070f33d4dd963ef6655200e360acb1c1f2d5ec6b6ae5de9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00100/RF-06.smt2", 2419, "5c0f5b50cc1276af9cbfc2bdac853e51fa1a08b37e3da070094a19d9cacea077"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00100/RF-11.smt2", 2471, "a6ee36f39370628fda6ab97ddb213d0dde8e337dcd6c4695dcb1f7d77660cb02"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00200/RC-09.smt2", 2341, "59bc8b3318e4ce03bfdf75f657d51a354a2b786a725048618223789500ae7a23"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00200/RF-07.smt2", 2538, "c28ea960287a665fb5373b039f7166891ea79dd3c4c95fdafa844c560e9b5734"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00500/RC-04.smt2", 2346, "1598fbce8f5470ef4c9e20f95e4e12283e26bb362cc839988c45488053e247ac"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-00500/RF-13.smt2", 2686, "f7c423e36b1c44d02a54511d8e4b9776d1e8a8f773567d11f6c80602dd54ec5f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-01000/RF-06.smt2", 2514, "3dba8981ac2963d4be14cedb9a725e3ead1aa273a8e212995bcee430a758da65"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-01000/RF-11.smt2", 2551, "aa1cc38028cde37d5793720e6991d214c8f98125029a2d9439168be34270e036"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-02000/RF-02.smt2", 2380, "829c89450a08c05c31d0d00adb2a5381649e7e9cbbb0857b4aaee611bc82d59b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-02000/RF-06.smt2", 2588, "3b82867b692d68fd531bd224c47c5e05ad4c75244ebfb486c3c85c128c4261e1"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-05000/RC-07.smt2", 2359, "190e182d7aef5a0e2e7924e46d8e3bdcf8d493ead33162ba65ef2b49c67d4d6b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-05000/RC-11.smt2", 2362, "3d29e9b321f8d7adc822bb9e4f6b87cdf36e01cbdda5c6770d90d14be47e8051"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-10000/RC-05.smt2", 2395, "366da8e26c750557c7deb3000f746ee20423916650d6446d1fded44bc705f592"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RobotManipulation-PT-10000/RC-07.smt2", 2349, "40ef80de2ec19b91bdadc4736ced3e0199b74ae7899db9e3bc383dab74df29bc"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RwMutex-PT-r0010w0010/RC-09.smt2", 12987, "4e96e607d982dd3a527a03a52cb801612157e1da3f5c82c0da676e757a295b82"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RwMutex-PT-r0010w0010/RF-11.smt2", 13117, "634cf49d218f01889e253b7bd4b0f6ad779996cffd05fdfb9db75189badeaf6a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RwMutex-PT-r0010w0020/RC-15.smt2", 22469, "9679a5c5a2e2d07ee41dcdec68575bb4e122594b5de79fd7abcb2d89080e9a31"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RwMutex-PT-r0010w0020/RF-12.smt2", 22567, "20b6798b79ee38e16c51232ac2ba1dd906d6b3b19787e73f1cc086c98142ae56"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/RwMutex-PT-r0020w0010/RF-14.smt2", 24346, "e92ba1b6a6b246ba371a5e7f1945df25dfc9db382f01ba235eb119352c75e151"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SharedMemory-PT-000005/RC-08.smt2", 9439, "4f3173ab7462726036403e91a3001a12fabe266f72ef53edefaa321b1143ca48"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SharedMemory-PT-000005/RF-15.smt2", 9576, "55ecbdd7da4eda46181852e9e8e24cd2b98244574a5abaf9adef324d9b53b3b7"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SharedMemory-PT-000010/RC-00.smt2", 36903, "a74c7570aa27c4aff45a7af255fe4e4763835c38abb48b9b96e01bec8ecbf98f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SharedMemory-PT-000010/RF-11.smt2", 35131, "3813361545e38235976c224c7a2867c601cd5c9f225018cdd5f3f4d31318811a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0016DC0008/RC-06.smt2", 1863, "b34c4e80fd642860a93eed60b940ff0f09b2e091e2663702b862e39be552e0b7"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0016DC0008/RF-08.smt2", 2048, "12628995fdbbe29617b69c88f21eb66f46a7d2208344d218b4abb2b25ed23fa6"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0032DC0008/RC-06.smt2", 1884, "70d7c282667cffe117c62a5b9f77c17dc2f1cf0ffcf5f6aa84bf130472099118"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0032DC0008/RC-11.smt2", 1794, "b20efc4cb2bb456c236d858a86a3bee939cd4aedd4803a5705ed6d52fb1d6547"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0032DC0016/RC-07.smt2", 1776, "cd9b979d047001ba6f4eb3f6005ac447306ecc8170c7509f524d3427278db54d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0032DC0016/RF-07.smt2", 2072, "e90d89e845501630cdd2e5ef0eaf0529256826fa82dd00671d9cc0c46be9623b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0064DC0016/RC-06.smt2", 1893, "4a6f79b9829156cc64aeab7d02d92e3310e2a5d0502d4c3f6478400d3d34894e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0064DC0016/RC-07.smt2", 1782, "234c822225dbaadb4f5da3d3182d8e192898896ed2b9b5d6892a5f4874901e2c"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0064DC0032/RF-00.smt2", 2084, "72bdef43f07f64aa32f13b8a2748c386b39eb4893995e54a45e0e27f25efcde0"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0064DC0032/RF-15.smt2", 2047, "6aac55dcce151bd6d4ffb5206e3462c0366e596d205a01bde12f8c19f04c0f4a"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0128DC0032/RC-14.smt2", 1879, "25f718a5842f3d0390fc4aa6d4eab6038ea9c7bf7f71dc8c8872f8f080cd999c"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0128DC0032/RC-15.smt2", 1944, "a62a8605715086ece817fe430ed6fe6edb16cf372dde8565716293159cd0ade9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0128DC0064/RC-10.smt2", 1823, "d34dd363d9ff7cbbb6312890fcba02587d17ce58014c975f4a7a8edd39da89c9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0128DC0064/RF-01.smt2", 1909, "d6683c34ca472d3f2e4bc05fb64ff41cc514827124517a22c4ee94fa27f71e5e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0256DC0064/RC-14.smt2", 1816, "8037c7ea5ca7b08e10688ecd71c57458cdea56c4722e6afee6b28c82fd7cd973"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0256DC0064/RF-15.smt2", 2000, "9d66371012776783ae91748e5ff9eb22644ce2b44b77e42b3d3dde159411982b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0256DC0128/RC-10.smt2", 1813, "5ad3f6b23016ca684aafc8ce94199d3d55973a9e0df8061fc4e2b46f2ea76866"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0256DC0128/RF-03.smt2", 2012, "040d72378502ba67db00555311ac596096d3566e1a7beca4384d385c8c854114"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0512DC0128/RF-11.smt2", 2072, "6ef9d3a085ffc09a47f27c81a4930cb2d4f7300adca76663fcbdb1881085c23f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0512DC0128/RF-14.smt2", 2185, "ef6d16d0c21e8df33dae2059595c09e615ec1f2a03fab87f04b1d6799a1048ea"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0512DC0256/RF-02.smt2", 2005, "2d4310ad938ea1d6e92be0623e4b3b3ae63be39f6f996726d2223c0a3343082f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0512DC0256/RF-13.smt2", 1924, "847fc06de45a374b381ccafe5bbc08afbfc7f473a987f1a25b3355b0b6e82cb5"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT1024DC0256/RC-11.smt2", 1814, "71168469f90d1b5afff97be14082b6c56f93cef5176e745b26953cfe6bb6fd29"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT1024DC0256/RF-09.smt2", 2157, "53dfbb51353a08e79da0b96e226eefca683c6233906024719b81389871a307b1"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT1024DC0512/RC-08.smt2", 1832, "0bb4ca1b4b2dd8c3af3ee76073a76633d376261f625527f6f2274d22f06e7cbd"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT1024DC0512/RC-14.smt2", 1849, "a92c67ab6455c85f3f5345bf3c02ee1eafd0978e38826007107f07464e33ca02"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT2048DC0512/RF-05.smt2", 2117, "865083f3466438e5c3c4f2e36f574ddc88ae6862a730ee7ac08cd353668172ac"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT2048DC0512/RF-11.smt2", 1897, "3b7a95d038c2a3af16201bcecb9d952f677ea2cd80772a26bdd832386a5dee6d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT2048DC1024/RC-10.smt2", 1789, "022dd59a05fe3af4b400f9a402b5f709c3808b35a058b87bc46a987e30f6adf3"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT2048DC1024/RC-11.smt2", 1803, "edb5d8df268a0f4d5aef5ea7d03904b17557ced7bb82992c975d968a11fce97b"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT4096DC1024/RC-14.smt2", 1952, "04c948216ec612ea7c09e40206d9036c2d7e4fd83feedec702b135aa9bfb15f2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT4096DC1024/RF-05.smt2", 2128, "c76514f2b3b49533fb8528e7a6806d5bb28d8e08e4cdfc2e55835b4a9778ecb9"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT4096DC2048/RC-15.smt2", 1899, "77104741cd04e5e155382599439288f12a8e8bae391e70532c1da74a56e31a8f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT4096DC2048/RF-11.smt2", 1929, "09162bcb3796d8bdd33cb840c74d9eddd5fa14c8961a5e5cea08f569334f1f77"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT8192DC2048/RC-00.smt2", 1836, "930a6ecdd040ba283a58b7c7f608e9561e43f3c53adebb419ce8849d8ac2dbb4"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT8192DC2048/RC-08.smt2", 1811, "519433d3085c639f6509edbff0c9f472923c1ac0d4a2fffd39708fc91931b49e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT8192DC4096/RC-15.smt2", 1924, "08a43735cba7fce1e60f9a0e6eb12228b9cff8fda6dce23ee9f12b7135d5f6c1"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT8192DC4096/RF-00.smt2", 2159, "4ce10539b1439bce4f3e62ff3997abfd3e40a7a3106b9a3cc208628fe9358d70"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Sudoku-PT-AN01/RC-04.smt2", 1018, "26497be57f9fa820ac937bea62120001bc05c13c88a196390e3f2003bfdc2057"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Sudoku-PT-AN01/RC-14.smt2", 1086, "851437783ca59590e74b7b655861f379720e2d027d9ab45d1af7ce415431fe14"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Sudoku-PT-BN01/RF-05.smt2", 1573, "a2d11ad9ab63f372e85624b57bb205385ff79ad83467e0b159a89ddb995f5a0e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/Sudoku-PT-BN01/RF-14.smt2", 1166, "81abb0e594459f35630aaa3e69bb48afe5639e32d9fa9e532318a3efc0a7d015"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-01/RF-03.smt2", 1543, "75a49548604b77d866ee873d1688005b14b25055447716f39bbf2c8bad01d887"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-01/RF-06.smt2", 1419, "b8ca64b3643796901eb0db4882b1c1c6dd7b1300da4b514b46b460e68fc0110f"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-02/RC-12.smt2", 1425, "34b907c8ff315ba538ebfbbd06b6108a7ce148a119ad103643041d4f3ba67f06"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-02/RC-13.smt2", 1390, "9ac1134ddbb376f6aef61401dc6af0572f6d5060d2ea7eb7431347867875ae6d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-03/RC-08.smt2", 1387, "5e4e5f231838e8c7283caffeb67f2a41a0567445fa12f420b181d54694705865"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-03/RC-14.smt2", 1413, "0e26ed7e87055bec33fd30e920c710e78abf74a5de06998ee0309925eabb1eab"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-04/RC-09.smt2", 1378, "a5d0953f0ab23b710859ec8f40cc987e6253edad31e15c751167bcfaf83dd2d4"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-04/RF-13.smt2", 1542, "d8bb7f2c7d379f855f2f6f80e14b23b74b8245ea0e3018ed5126c04e351e1045"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-05/RC-06.smt2", 1310, "71697cced76e8bca6369f23da1d3f4ad1597519827ea893cd9e5e2fe891c3ff7"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-05/RF-06.smt2", 1375, "7cc29d10d0097175952da180d6cae8bc53690da2a2ccc8baee09f0585d2aa95d"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-06/RC-06.smt2", 1397, "16946332ebb4348506dbece8c458c78496359f2a6df6225e341a5c62d1b02464"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-06/RF-05.smt2", 1557, "8619494565832f4426c84fc3fd8242c2cc9e21644596419986fd8a1e262446bb"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-07/RF-06.smt2", 1479, "89633117a1b40fb64c2de6ae73dc86a30eaef4004414e0225c8f6e10d3db5ed2"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-07/RF-12.smt2", 1401, "906dede9c53eb5a6dd520b45c2854a5e1581be3824f1cbc109164edbcfe10856"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-08/RC-00.smt2", 1307, "f5ec3468319d2a0352f404ca6b63bbc440b0aa4aa1ee2a057e4e4f1e831d7334"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-08/RF-01.smt2", 1369, "29416aa5ac6f97f4149b59947fceedcef6345e8aa10ff75d28e2e8635e10ac2e"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-09/RC-02.smt2", 1435, "38fc4cb81ae6e3b9537bef8895df862093ccc6e0aa3d566ac16b89c124bccce6"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-09/RC-15.smt2", 1348, "871b3c792e420e664c50f5e02cc85e8bf478f47a0cb881417249875c3478d3ab"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-10/RF-01.smt2", 1572, "9539c30f6eda238c4c99cf82974309416bf3e9656bec05ad4910456194632e64"),
    ("submission-2022/non-incremental/QF_LIA/20220307-SMPT/SwimmingPool-PT-10/RF-14.smt2", 1445, "2398e848971a4d6a9fb783733ad5e1cafabdc7c0aff0a7ec09289cd9a9297a0e"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0005.smt2", 623, "12af8adddb468f260dfae17f83db1a2d41f07c166f9e8a0715370e89ca840b9b"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0013.smt2", 624, "5f75567ac02a13814e5d47e9f83c1b82ff8c3b06e537e168fa25895873914169"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0023.smt2", 624, "7129b5fad3dc60acbdebd20ab77d322e20ee72553d2df1217ab0046b301b48d6"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0037.smt2", 622, "26eaba415130c61d001cd32b21436d41f967e1d73c9a439c296a0a53d169f7d4"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0052.smt2", 622, "078cc3884258a90237f33f752fc89aacc1c57242c17408f91c0e48c0abfc0ec2"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0064.smt2", 622, "eee920d98178adad5df4a96701f8deec028484138ba74f02840fb4d1dee767f3"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0080.smt2", 622, "0f02c7bd6d847867eaa0f669530d39c9ca670008ad67060014864841cf55a3e1"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0083.smt2", 622, "6e9c75688116bc740edc0ca73d8d8583775155132be246bb297b9fa0699603c7"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0095.smt2", 624, "5348e6a7c06e58e2df50cf0684cb243d56b3ec79b0c09ff0fffc8d0cad2c5cbc"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0101.smt2", 623, "6144486ca557711363204606a1b67996711da13dad0326c81e807e587eda4d3a"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0107.smt2", 623, "d5b31afefaa50cc94155efecebfd965f0a849b4407383d1213036cd5da5981ee"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0111.smt2", 623, "eb6a888b94215c0f840e4b018f08ea224dd60965d7d766e0cd022f595ab44905"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0112.smt2", 625, "c169c86ec9f551e30e94391f43b65a82172801bc6d11f226a695d02803bee888"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0188.smt2", 623, "1bd1b0962e11d06e35da96eeafd04585489161a25ce4a2d2f7c65fc960d465e5"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0211.smt2", 625, "ba3723a6a5f0fbe42752b8a754219099d1b5dd0beae9cc7f5e5b78f1a1a3eebd"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0212.smt2", 625, "4d40d3f3628e017f61cee4194fc8eb77a20f186a408ecd05439daf1871a159fd"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0271.smt2", 623, "ae3dd1a51747d893f15b91da849c63369fb27cc277e514af47b73e015991bd0e"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0292.smt2", 625, "1ac02bb92a353ed1937a2df8ae84bf9af7be4b6a735974a06e2db20c5ecbbf8d"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0306.smt2", 623, "a7076871ffe966e5bcdf4d4519164448076957757763d3496cfb04ee6e5d54ff"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0410.smt2", 625, "1a855671f44cfa622534ad528700d6e3f51a63585a2a0c3d3383f8dc355a792c"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0416.smt2", 623, "f6623be52e428593aeb3eaf13041bbf63ab395bc952dc8fda2d32f844ca10eeb"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0437.smt2", 625, "88ec8e55efb2dcf02dbfe43e9765f8532f7244c7f3fa15db40f019978a42ca33"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0445.smt2", 625, "72f7e8929c1de34df1abd0db9f2ab97706a474ea69b1b6cbb91c53cf90b8c6d6"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0471.smt2", 623, "7604486f5c17f7c9d93f4ba2ec46832a5ea1128bf713200a7bd017f5eb3025c0"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0511.smt2", 623, "d0dc5e954c0ade81cc1870973cecc8825e8aef09250bd90c43d7685ddbd65d9b"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0541.smt2", 623, "57bf428fcf2280b5a90eee694447e6180a77f3ca969ad6ec5cb79bdc64e344ed"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0561.smt2", 623, "57271af568c72c20da56851f4953bd0f9447ec6e009fd534a913a992e84355fc"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0590.smt2", 625, "218bc6deecc1c0331d9f93420375ce6c9444dfc157381841c0d83ddc96fe4548"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0598.smt2", 625, "e91a12292d6f24c227ef42978525846fe9de59651f6ae7597df631117ea52951"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0607.smt2", 625, "31b57a9723d9ede5b200885095e9dcbf4246272a02b633dc23785077c9633598"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0617.smt2", 625, "051ce0827683c76a9d02516890d024bba732cdb1af8ce499434780d03d19dcd2"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0626.smt2", 625, "00fb4effc0f66655de3e2c9d81ffa6041abfd8a298dd4ad0e76799852df49d2a"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0660.smt2", 623, "ef8bc0d7966f0b5359aa000a61f477701bc5e0ff1a06895d926bc9f4e30e416c"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0679.smt2", 625, "4cdfe8520d0c546eb9d570abb4eb3220c72da28a0e34b7c2f09e9075fac9ea2f"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0680.smt2", 625, "918ccae501a59609528e2eaaafc3a48fddcf640db9c506aee4f6e2c677084ee0"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0699.smt2", 623, "54e020fbacb497d1189288da5a6b696c58de2355dcf795f708e367b775a5642c"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0762.smt2", 623, "0bf384cf3ed225f662eef2747b1642ef6b5b19eedeb5a516ab78b993ae840c2a"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0852.smt2", 623, "11b3c16b5317fbd58064d21366bd76189146568a4ee5a1c19a1ddb6e5126f071"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0905.smt2", 625, "3cd5a53d23d1c19d1a78ada0acb5c9a759264c3893c630ea2d1c314f18f5cb31"),
    ("submission-2022/non-incremental/QF_NIA/20220315-MathProblems/STC_0941.smt2", 625, "2455d60b8a40815922c801b39b3f2ce2482239393d2c2abfc211f9b17a2ef423"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_14a.smt2", 1517, "c73994cef556d0abceb94079d745fc499980c1d8df1613c4e2f63e1e905dda70"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_15a.smt2", 1746, "9bc76077c5456b94b4e14c695a29c0e962ddf87927f891552afb973ed1a89c4c"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_15b.smt2", 1798, "92e855ea1ce2b711ee42259e700abfe7147de78996eba1e010148afc23c204a0"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_17a.smt2", 1712, "e27d26cd1b9a1f348a64b8f8c7bdb6f2a35f0bff0a003f449901e806bec17e37"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_17b.smt2", 1764, "5e88a658021060e842fb691ad7631f0a4b1d829573a0ae88a2fed8178c40f82d"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_19b.smt2", 1284, "7697af9c6f1b7234d688cca8bd8a6f160cfa1c396231edc682f6c4657242e845"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_1a.smt2", 1211, "0370b4e4c61ac87f7fa5ba9edd8f76a4f7a03bb333ef0bad01f5b07bfed706ca"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_3b.smt2", 1514, "ba0169187c760ccb71444618c4eba483ba8416e84cffba715bfda221ca2b8147"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_7b.smt2", 1586, "acd77548f29c1d6cfeff3b7cf8241235858c18afb17fed644c8165eed8136a09"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoRightTriangle-Bottema1_9a.smt2", 1596, "9f699958b0f6846c61fb4aeacb924924c9d6e1b682c21d11c5e389b6a7e2bc90"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoTriangle-Bottema1_1a.smt2", 1200, "9989e403852392710bf470766a57b0d4c613182332a58da779ef81700cf21a08"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoTriangle-Bottema5_3b.smt2", 1527, "4f9ef64958113d079eca3adc2023c206c8bc2a42b7f02e6acb0f11ce0a2af4be"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoTriangle-Bottema8_1b.smt2", 1382, "24917f5b0141ca900a4d2aef0907170b1d0c40c01f593c4f055f6d5d16e5131a"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoTriangle-Perimeter_CircumRadius_a.smt2", 1547, "68e3553ac04a2b625233a2da0cc599b76a276f01ed1580c02fc3068db8a2a9ec"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/IsoTriangle-Perimeter_InRadius.smt2", 1854, "414c89e25d7305dc9835fe0b8fc4dba3b594f26560695410ddcd4046a824edce"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/RegHeptagon-Diagonal_Side.smt2", 2064, "2b89bc790429b4b73d52a6f3be40c9a6e692b41f0673339e0efe565746c7dffe"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/RegOctagon-Diagonal_Side.smt2", 2278, "a38a70fc0ae7c84768c438c80b8993036819ceb773743bb2a40519518a59c9d7"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/RightTriangle-Bottema1_19a.smt2", 1456, "24eb12ea6c032d5a8b7c9067f38c167e78065d9e79c9f5847c627bbc9b8647cd"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/RightTriangle-Bottema6_1b.smt2", 1549, "93c79dd08e5f11a2e7f2a438d5e0e8992614f9b8fc73c1ecfb79fd69ab0e82bc"),
    ("submission-2022/non-incremental/QF_NRA/20211101-Geogebra/Triangle-SymmHomPoly_3-2-2.smt2", 1324, "7eae61ff3c3f9d77e4e0349a518fabfbe61ca9c5f3dd92139d6fb35efd8d5d3b"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Polynomial_Proof_Calls/ProveIneq_ISSAC05_Bessack_2_2.smt2", 1235, "9bbf8b99a1d4ad0ad7e4f3d4a322c69b7b4234b56749696b7beeffb67fd34f3a"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Polynomial_Proof_Calls/ProveIneq_ISSAC05_Bessack_4_3.smt2", 1354, "50170315d55c3e640815031cbcf1f75042cf6a95a833942a7429db68bc4ae139"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Polynomial_Proof_Calls/ProveIneq_ISSAC05_Bessack_5_3.smt2", 1387, "4e92753976b618d607553129c1c176586c1f0f34c69f4bcd6daf0eaa42093baa"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Polynomial_Proof_Calls/ProveIneq_ISSAC05_Bessack_5_4.smt2", 1459, "a5a5d29696f62ec1679757059aac5aae87890ab09eaf0a4997b8dfd73b417396"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Polynomial_Proof_Calls/ProveIneq_ISSAC10_ex2a.smt2", 978, "d84335ccb927600ff04f013e7df0a80bf0b8fe57ecf9d8693df7e38c708cd01e"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Polynomial_Proof_Calls/ProveIneq_JSC_SUMCracker_16a.smt2", 862, "3a153d8c5c3a7f3b3237b83027337f50245d4d77752e72a37a7bb9074243b3b4"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Polynomial_Proof_Calls/ProveIneq_Mitrinovic_3_57a.smt2", 1128, "a497d709269dab3e864dbf84f03b214b7dc79ae95a5531ec7d318a7b601c4bd6"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Polynomial_Proof_Calls/ProveIneq_Mitrinovic_4_17.smt2", 1108, "6f18a0936e52e07eaebea395873ec5888ffd2d072e4e5ac763c328854eb4bdaf"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Basic_Denominator_Simplifications/BDC_ProveIneq_ISSAC05_AmerMathMonthly10347RHS.smt2", 1737, "451a56aef999877affd948ceea7d84a2d5cc3c0ba6383f4486305ce42c1566ae"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Basic_Denominator_Simplifications/BDC_ProveIneq_ISSAC05_KnoppSchur_a.smt2", 1584, "014488477dabb961201f6424860dd1dc82f7a8f90d1335f6636c30def01435dc"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Basic_Denominator_Simplifications/BDC_ProveIneq_ISSAC10_ex2c.smt2", 1308, "8b32d5a165140910307748f70e1ac613a7c73c29bbfcf07e89a0c9f03004de4c"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Basic_Denominator_Simplifications/BDC_ProveIneq_JSC_SUMCracker_14d.smt2", 3439, "97a1771f4db461159771ec5ba96b0b4b2dcf7a8cbea03f154cc0e2ef2fe37b94"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Disjunctive_Denominator_Simplifications/DDC_ProveIneq_ISSAC05_Bessack_2_m1.smt2", 1473, "8bfb08937f97849702b2a41d9b241e16d531fa0b1409dcca4514f0ac72a5603a"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Disjunctive_Denominator_Simplifications/DDC_ProveIneq_ISSAC05_Bessack_4_m2.smt2", 1634, "2c39648de8d6bf7c4f8884b273bcadda5f934efaa4ec63aa8c0f06cfe2989380"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Disjunctive_Denominator_Simplifications/DDC_ProveIneq_ISSAC05_FibonacciPoly_a.smt2", 1867, "612cb085de3143e33281f51d28a18cb0ac0cb1580067f4bf025431186b3ed4f8"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Disjunctive_Denominator_Simplifications/DDC_ProveIneq_ISSAC10_ex1c.smt2", 1479, "6ef9e1c3272286449c2ae94e296656c0e9cf6795190e46865b7464884a54d262"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Disjunctive_Denominator_Simplifications/DDC_ProveIneq_ISSAC10_ex3a.smt2", 1271, "2dac6e4b07b7936db3d7bd21bf41ac9db1d7e1a8cd68aaf8b528be06443e4ab1"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Disjunctive_Denominator_Simplifications/DDC_ProveIneq_ISSAC10_ex4e.smt2", 2394, "9cc3d085bc8dcf2677d04adfc08bb3ab65b52d2c9a71b915d884656eef5a150b"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Disjunctive_Denominator_Simplifications/DDC_ProveIneq_JSC_SUMCracker_20.smt2", 1949, "839a9b4a40e72cbb2ef228c29070d3acecba4c9e1cc00dc6d10e50b12a193bb3"),
    ("submission-2022/non-incremental/QF_NRA/20220314-Uncu/Rational_Function_Proof_Calls_With_Disjunctive_Denominator_Simplifications/DDC_ProveIneq_Mitrinovic_4_29_2.smt2", 1855, "e75a9b480efc4d9d26362946b0d5985cf7cc40c8eb59d02a00f02bb056a467d6"),
    ("submission-2023/non-incremental/QF_BV/20221214-p4dfa-XiaoqiChen/Composition/simple_bit8_na1_nr1_twocond.smt2", 20213, "747be9b32be0ace042cb03b64b9e39fd050753bb9e9ddf6b3fbec9f302ebc4ba"),
    ("submission-2023/non-incremental/QF_BV/20230224-grsbits-truby/grs-128-16.smt2", 34774, "25425605399302954058f58478974c0166e01018576e5b95eb0609ab97a4185c"),
    ("submission-2023/non-incremental/QF_BV/20230224-grsbits-truby/grs-128-32.smt2", 49878, "6ff59a5708e1e16cb6a58907aa4be1e73514e7e2798e8ea98353f51a422e5493"),
    ("submission-2023/non-incremental/QF_BV/20230224-grsbits-truby/grs-32-16.smt2", 33300, "285e630f8a0c334996b88343e1d4301391269cbd25c70c31d4b71af61d3640ef"),
    ("submission-2023/non-incremental/QF_BV/20230224-grsbits-truby/grs-32-32.smt2", 48338, "8113857fb080e1de95bcc351d5d2ebe63e66d950b4f8f0a920239a27204a26ec"),
    ("submission-2023/non-incremental/QF_BV/20230224-grsbits-truby/grs-64-16.smt2", 33748, "d142e1ce949cd270f88285f00dbcb1501ce8620afce8e1988539715f52a3a69a"),
    ("submission-2023/non-incremental/QF_BV/20230224-grsbits-truby/grs-64-32.smt2", 48804, "94e75c80dd856f2f86824e3d34b2987451f1f6a1ee1ae5c294cf170e37fecfb4"),
    ("submission-2023/non-incremental/QF_BV/20230224-grsbits-truby/grs-96-16.smt2", 34222, "56c0413e2b7c8a37dd7f9c7124af13a6dbc30204ae2e4457c82bd3baaf020df4"),
    ("submission-2023/non-incremental/QF_BV/20230224-grsbits-truby/grs-96-32.smt2", 49262, "4bda4b9f3888a862113321da0e0c204de46fa54a58ac8883d3bb3eeffd87f111"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/modInv16.smt2", 1192, "0b9a44fd10c1ee2670b5602dfcb54165ea91b64de709fee2947fead9f49af8d3"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/modInv32.smt2", 1276, "445fdbfa47befb0658b330e073f4874b781b29e35045f40033de85fffc8c6833"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/modInv64.smt2", 1365, "f906652fc973285f814cedaf0d9e12e685b680ccdfd28e27ee35532bfc1d7cf0"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/modInv8.smt2", 1111, "5d1a6223d8e80f8841a581f4d375095d56816898abbb851d934fdbd86129416f"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/modSimpleTest.smt2", 517, "9443926f06354908611d909a577564e653003ed1faeeb503dda9f2d7d82a49a9"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/sqrtStep1.smt2", 1077, "4be4382761af8ae34ba468d292dedbbce60a1adbce104d03ebecaf9217d020d8"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/sqrtStep1a.smt2", 1071, "fb811ab528d413fe6c5b506fd26ea2bd4d94f1b22aaf0b6ad5155af2e59daac6"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/sqrtStep4.smt2", 1168, "0dc9fcce77b7515edc098983b27d248caf0640ae20baeb50b1e4d98680f0a4a8"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/sqrtStep5a.smt2", 1162, "ecfa69a9d2affebc9c1f5529ec5b429db79f8b95378d7c3429ef8f085246e545"),
    ("submission-2023/non-incremental/QF_NIA/20230328-sqrtmodinv-hoenicke/sqrtStep6a.smt2", 1184, "09dd03278caf06d7ae58028bde0f9bbbcd00db01b74545e4b36e04a6c74acb91"),
)

_SPIDER_EN_ROWS: tuple[Row, ...] = (
    ("database/battle_death/battle_death.sqlite.gz", 1508, "26b5ebcfb7a1ea0517b8364fc6bac9716999734f967b401aaf2148bb8e4d5a0e"),
    ("database/car_1/car_1.sqlite.gz", 13113, "799b68902ecd0afc5c594e67de59638ee9f10adc9b02c9937665d345074da290"),
    ("database/concert_singer/concert_singer.sqlite.gz", 1565, "faa2647ec05f4a03dca17725dcc6149c09e659c6e37d8c42e555c2c0bf022e37"),
    ("database/course_teach/course_teach.sqlite.gz", 1069, "577cbb9d99585f350ad73f4d1914d76e1aba00c8d138712a4c4127e967cfcf05"),
    ("database/cre_Doc_Template_Mgt/cre_Doc_Template_Mgt.sqlite.gz", 1965, "95d437c8b9e998518c6ee92edda7ab1232d2ddf340194a4e81ef593e33f5d9ce"),
    ("database/dog_kennels/dog_kennels.sqlite.gz", 5609, "44369c7b2ace92b3749991cde48c34d8e815436692735f8a3061c92f9390a492"),
    ("database/employee_hire_evaluation/employee_hire_evaluation.sqlite.gz", 1606, "b0c7b4c8b4c623c0a8f2251709ebdb0d15847305509c4e2eab7d7be2f2f34ed5"),
    ("database/flight_2/flight_2.sqlite.gz", 22617, "5dbaf17a9d20dde90b4152b774db1f3e59719b2aa0519684082f1f2d10b2167a"),
    ("database/museum_visit/museum_visit.sqlite.gz", 1102, "bad22fb654e6333812913a480590381ff0b814e077fda712612583c4f58b43d3"),
    ("database/network_1/network_1.sqlite.gz", 1241, "585e462379c66fc8f28c87d8e799379bd1268cad286cf6ce7bf3203b434c3e85"),
    ("database/orchestra/orchestra.sqlite.gz", 1922, "896a7453d24ee3ae22af9fcf6184504b0438bdb829d48ff4effd65077c6ee642"),
    ("database/pets_1/pets_1.sqlite.gz", 1257, "d8707324dda6a1b10c46f12d70dde03f2f39939dec6d76916df7ccab672de41b"),
    ("database/poker_player/poker_player.sqlite.gz", 861, "bbd5488d50d2438ba912e6ca1b44e88e517177a89f522cca459b6c1f06a11da9"),
    ("database/real_estate_properties/real_estate_properties.sqlite.gz", 3010, "6ce9163619f5ef2bd82e0036f76e41ceb6266f68cb53c9fa5c6986745a58243f"),
    ("database/singer/singer.sqlite.gz", 959, "17325f5e77c6f34225c058c15e763bd19b33a6ef163ad1cecd0efe3483c636cf"),
    ("database/student_transcripts_tracking/student_transcripts_tracking.sqlite.gz", 4819, "f86ff1ce15a0ad2a9d6ffb16d9bd89555ed5b7584036869bab5f368d6b82c840"),
    ("database/tvshow/tvshow.sqlite.gz", 2230, "20ec0d4f400aae5608029daaac7a4515957098e1f75beb0af2f4137cf999a2d0"),
    ("database/voter_1/voter_1.sqlite.gz", 2516, "51d7e8355fc9197c2ec38af753d1b4f491ae09b9bc8c5496635581fc47a6ccdb"),
    ("database/world_1/world_1.sqlite.gz", 132562, "644893e749449e7c4b875888d6ab2e56974970fe472adcc086f87c5ced5723f8"),
    ("tables.json", 810971, "61bb20aa401f03164e2d7f3b16509b7b5f79cc9c943ca7bd159046df1159e2ed"),
)

_SPIDER_EN_SQLITE: tuple[Row, ...] = (
    ("battle_death", 28672, "12569f4493a9655639c4ea86ba4bd8a4ea6411e1b8ae0e1fdf3d6a995344265d"),
    ("car_1", 65536, "9d851e396e02997a1de073ae982fe1e4b1769fdffce2fac6e325857a3a938709"),
    ("concert_singer", 36864, "4fa1ba5ab4577e895271088b1dc44aa94be88e25a54293317a67584112ef059d"),
    ("course_teach", 28672, "da45fcdde64ac2b9330146506b7653ad4417489d8e496e509045e1b02245d793"),
    ("cre_Doc_Template_Mgt", 24576, "9c3fdd03d8795ecde60aae782ce50c4fb1d6c03de1401fcdd6dc177342a53df5"),
    ("dog_kennels", 49152, "ea5fbc6cf6aaf500371c5c121c339d9802ba6f5fbecd948a5274c0b487a9f486"),
    ("employee_hire_evaluation", 36864, "760fec5cc872ef0cdf99242614f05c93dbd00d422ac9da87ea64fcf555be7373"),
    ("flight_2", 77824, "db777ba6488ae2b515cb138d71ff23c4533e5fd0355854648a1102faff3fb7af"),
    ("museum_visit", 28672, "3217aee38d8e3661d374bf025591b7164a1179c568ef5d20f3c338035fc6e1dd"),
    ("network_1", 28672, "bec92cd9a68d6f23469a0df246429299f44caaf75eab12275784e0bb7d0aa9ca"),
    ("orchestra", 32768, "13b64af1cf6fcbd34953a44f951b2bf79bedc000b344549212dac1a9345e2f86"),
    ("pets_1", 16384, "8ffe0ea9b3b034ca8860a2f18300a98c7583ce2522ea195726a04803f675e5bb"),
    ("poker_player", 20480, "63fffd7b68524f07a742a74b74b95a4ba178e6419f3574b9ee78b8dda1df46ba"),
    ("real_estate_properties", 32768, "5d0bd83afa93a843e68f892d8430fe625d7ed2508aae00a341926b0b5b478a29"),
    ("singer", 20480, "5c1b72755d148c294b26d7b479307e8799b93485ac918720f953e2ab84d59a0a"),
    ("student_transcripts_tracking", 49152, "5a1f4928a1fd36f6edb31c4f054203b2e2fab6b18e5951c4f5633628f82a8e56"),
    ("tvshow", 28672, "1212c2e75cf1dcf3aeb4055331a85298b073d8a613ead77975b13bd3346b9fc4"),
    ("voter_1", 20480, "815bf1611b8a32f649d292a6138562f1761a0c10cb256e20f6561199cff31531"),
    ("world_1", 319488, "17b986695f16786d58d66f85e49dba87bdfe72953207ab9b1b49da9d2301ef65"),
)

_SPIDER_DE_ROWS: tuple[Row, ...] = (
    ("database/battle_death/battle_death.sqlite.gz", 1592, "a9f5199993cbbc1988bf92b1a823ecb24776e42c9058a9304b6449847f8c2e3c"),
    ("database/car_1/car_1.sqlite.gz", 13151, "8c3aba5ed46b8dd382f580609e771d9607871c1a6673ce8fd3372bd98c731f8d"),
    ("database/concert_singer/concert_singer.sqlite.gz", 1623, "2a8e61834d4a97eb73469677a46d0362af1111de886b1d40dbfa9114b42daf26"),
    ("database/course_teach/course_teach.sqlite.gz", 1070, "296f067ac62c6b0433c4fe5bd28ba52f3f432db3abf70ec2e5cd815f544639a3"),
    ("database/cre_doc_template_mgt/cre_doc_template_mgt.sqlite.gz", 2027, "036688d8c6d74e6d5aa82ab4044a69376350440983cf87546e2a8701b00ad555"),
    ("database/dog_kennels/dog_kennels.sqlite.gz", 5675, "2d58a1c70cecd6c9861ee49abddfbad5529ab50669aff31c62b2e73632800258"),
    ("database/employee_hire_evaluation/employee_hire_evaluation.sqlite.gz", 1647, "1ccd85eb4abd41261acc2a6f46c560b0fa9b9c8634244b7bce729f4ce5471124"),
    ("database/flight_2/flight_2.sqlite.gz", 22900, "c6effab160566717de3e56ab1e5a3a796337152d6a637f5e3a7d7963291d618a"),
    ("database/museum_visit/museum_visit.sqlite.gz", 1135, "5668fe3168d177b6b351228650884ced592e165904a23db55954ebfb3bc7acc2"),
    ("database/network_1/network_1.sqlite.gz", 1236, "e2122a689c5157b665b6aa576270b30f3c7e9b7540529cdab557c0fa1e1e2566"),
    ("database/orchestra/orchestra.sqlite.gz", 1991, "802e7b2bc26ceb39d99cf909139d569af16eb19c8fe94ed58d319354dba837b0"),
    ("database/pets_1/pets_1.sqlite.gz", 1296, "bfe73f4db281cb963c9c6177503f538337cfe81dd3a6b655fd8a940120ce3ec7"),
    ("database/poker_player/poker_player.sqlite.gz", 888, "79618d1ecd98c30dce7ece1713b4c36b82d9e407ca1604b33a3f48379dcbc544"),
    ("database/real_estate_properties/real_estate_properties.sqlite.gz", 3117, "40a0699ed367dcb252ca9417945b37af1775f763c735ebdeef19e8cbf14e35af"),
    ("database/singer/singer.sqlite.gz", 992, "7b286f4a4bbd9c6db25f7cf79cb21c34dfa07740ee7b7d4f776f2a67046b7b66"),
    ("database/student_transcripts_tracking/student_transcripts_tracking.sqlite.gz", 5079, "88630ad056932565d3b759f79a5f7ef3849109e8de0ce36e8d5e1dd413980195"),
    ("database/tvshow/tvshow.sqlite.gz", 2298, "20a321dc95028a51c16407f0f03e322691fc8428f7ebc5c6f02ffaefdc8e4ce5"),
    ("database/voter_1/voter_1.sqlite.gz", 2409, "3a2b9e37e5f28ab06e19dfb40a29de5f544ab8c190dcab95c4334d6a0b31047e"),
    ("database/world_1/world_1.sqlite.gz", 118157, "45c39f167508c5aaa316137b04e0b78aec7414ba6d5f623e743a1ad8d205cf1e"),
    ("database/wta_1/wta_1.sqlite.gz", 717, "84a968a51ec87856513472757319bb4367812b9a19d185885ced1726ec12da63"),
    ("tables.json", 975302, "56395833c89543fa34deae9491497592bf93c63aad4533b798f1c3a8d71be86b"),
)

_SATLIB_ROWS: tuple[Row, ...] = (
    ("flat100-239.tar.gz", 158873, "ca32269d5034ddae8328a522f544ce52b3a6a14c1ecd606fdb755940681308a7"),
    ("uf20-91.tar.gz", 249603, "5277f719c281bf5e22ffc8b9fa3de5ced3e93e51e8d166dae03ad15e542a6d1c"),
    ("uf50-218.tar.gz", 682844, "a81cb24ef6e4fae9ff91357ba200a8d174a7a82561d2eef0f9d183bef3d97b81"),
    ("uuf50-218.tar.gz", 681612, "2e16575bec44ec8f304837ea9f9ea7203b889436c9f9449196105b27cb9bd64f"),
)

_SATLIB_SOURCES: dict[str, tuple[str, tuple[int, str], int]] = {
    "flat100-239.tar.gz": (
        "flat100-239.tar.gz", (212192, "e3ec726e197ca40c4fe34db8f6caf35cbb9e8b3e6aa1d0bde9619111397e4482"), 100
    ),
    "uf20-91.tar.gz": (
        "SatSolver/data/benchmark/uf20-91.tar.gz",
        (323695, "be2835295e8500bb28f0314eba70bd0deaff1250b187260f7b6d0772bdf111a5"),
        1000,
    ),
    "uf50-218.tar.gz": (
        "SatSolver/data/benchmark/uf50-218.tar.gz",
        (878261, "a40862e52dfdce78620b037254579a02dbda8182d2879433658a4c15cb00327c"),
        1000,
    ),
    "uuf50-218.tar.gz": (
        "SatSolver/data/benchmark/uuf50-218.tar.gz",
        (876573, "24cc9f492673e0f975fecc56b3a4d8ac21c385cc46205d83b7491a787f43e13d"),
        1000,
    ),
}
"""Stored tarball -> (source path, source bytes and sha256, source member count), from SOURCE.md."""
# fmt: on


def _smtlib_files() -> tuple[SourceFile, ...]:
    origins = {"submission-2022": SMTLIB_2022, "submission-2023": SMTLIB_2023}
    files = []
    for relative, size, digest in _SMTLIB_ROWS:
        repo, _, inside = relative.partition("/")
        files.append(SourceFile(relative, size, digest, origins[repo], inside))
    return tuple(files)


def _spider_files(
    origin: Origin, prefix: str, rows: tuple[Row, ...], transform: Transform, sqlite: tuple[Row, ...] = ()
) -> tuple[SourceFile, ...]:
    source = {db_id: (size, digest) for db_id, size, digest in sqlite}
    files = []
    for relative, size, digest in rows:
        if not relative.endswith(".sqlite.gz"):
            files.append(SourceFile(relative, size, digest, origin, prefix + relative))
            continue
        db_id = relative.split("/")[1]
        source_size, source_sha256 = source.get(db_id, (None, None))
        files.append(
            SourceFile(
                relative,
                size,
                digest,
                origin,
                prefix + relative.removesuffix(".gz"),
                transform,
                source_size,
                source_sha256,
            )
        )
    return tuple(files)


SOURCES: dict[str, DatasetSource] = {
    source.name: source
    for source in (
        DatasetSource(
            "gsm8k",
            "GSM8K test set, from grade_school_math/data/test.jsonl",
            (GSM8K_ORIGIN,),
            (
                _selection(
                    "test.jsonl",
                    (594124, "6d2d42e690b79c18968b078e8ae6f905116251458eb3ca3879bb40151afea605"),
                    GSM8K_ORIGIN,
                    "grade_school_math/data/test.jsonl",
                    (749738, "3730d312f6e3440559ace48831e51066acaca737f6eabec99bccb9e4b3c39d14"),
                    1319,
                    Transform.SELECT_LINES,
                ),
            ),
        ),
        DatasetSource(
            "math500",
            "MATH-500, from a mirror of openai/prm800k prm800k/math_splits/test.jsonl",
            (MATH500_MIRROR,),
            (
                _selection(
                    "test.jsonl",
                    (361475, "ae9d13fadbda5abd9d61d9eba11811033b294abc71e6462de8d9b55d06057bfe"),
                    MATH500_MIRROR,
                    "datasets/math500/test.jsonl",
                    (446526, "5f825781e98ae98d39711ce3f9d02ec06743e04b6f3b3cb256f4049079dfa491"),
                    500,
                    Transform.SELECT_LINES,
                ),
            ),
        ),
        DatasetSource(
            "mbpp",
            "MBPP (974 problems), from a mirror of google-research mbpp/mbpp.jsonl",
            (MBPP_MIRROR,),
            (
                _selection(
                    "mbpp.jsonl",
                    (451219, "61571d9e9eeed950cca49cc60951c5f82ac0e5f14e65be594ee53432a8a20ce1"),
                    MBPP_MIRROR,
                    "datasets/mbpp.jsonl",
                    (563677, "38b45e4221862303e8b69bb0d6f6b2494d8394da622c8dc4ab35735d3cecb3f8"),
                    974,
                    Transform.SELECT_LINES,
                ),
            ),
        ),
        DatasetSource(
            "satlib",
            "SATLIB uf20-91, uf50-218, uuf50-218, flat100-239 tarballs, minus the held-out 20% of each",
            (SATLIB_ORIGIN,),
            tuple(
                _selection(
                    relative, (size, digest), SATLIB_ORIGIN, *_SATLIB_SOURCES[relative], Transform.REPACK_TAR
                )
                for relative, size, digest in _SATLIB_ROWS
            ),
        ),
        DatasetSource(
            "minif2f_coq",
            "miniF2F statements in Coq/Rocq (test and valid), byte-identical copies",
            (MINIF2F_ORIGIN,),
            (
                *_verbatim(MINIF2F_ORIGIN, _MINIF2F_ROWS),
                _regenerated(
                    "coq_8.16.1_check.tsv",
                    22145,
                    "95b013bf629e7899607b2353f84e501442c233e1cb1c313da4695afc5f147107",
                    Regenerate.COQ_CHECK_TABLE,
                ),
            ),
        ),
        DatasetSource(
            "smtlib",
            "SMT-LIB 2.6 files with declared status, byte-identical copies (paths keep the source layout)",
            (SMTLIB_2022, SMTLIB_2023),
            (
                *_smtlib_files(),
                _unavailable(
                    "index.tsv",
                    80254,
                    "560d17152ca80a1b7dfdbf771b451fb85324b20d6ad0905a9ef19d5d2e0238a7",
                    f"the instance index with z3 4.8.12 results, {_NOT_REPRODUCIBLE}",
                ),
            ),
        ),
        DatasetSource(
            "spider_en",
            "original English Spider dev set (2020 revision), 19 of its 20 dev databases",
            (SPIDER_EN_ORIGIN,),
            (
                *_spider_files(
                    SPIDER_EN_ORIGIN,
                    "datasets/spider/",
                    _SPIDER_EN_ROWS,
                    Transform.GZIP_GNU,
                    _SPIDER_EN_SQLITE,
                ),
                _selection(
                    "dev.json",
                    (2900470, "89fb282f43ca67f0f82a31e75230639c722b89c376e783ccfb61d132be36f6f4"),
                    SPIDER_EN_ORIGIN,
                    "datasets/spider/dev.json",
                    (3629512, "30d64a3fccde493226df79687aed9e4a1c0129525baf44f29c0573d914d758a4"),
                    1034,
                    Transform.SELECT_JSON_ASCII,
                ),
                _regenerated(
                    "dev_gold_check.tsv",
                    25159,
                    "91f53bdbeb487677b3671a78c80c380e2b7276f373982be9b0cb4a011e136162",
                    Regenerate.SPIDER_GOLD_CHECK_EN,
                ),
            ),
            _SPIDER_EN_SQLITE,
        ),
        DatasetSource(
            "spider",
            "MachineSpider: German translation of the Spider dev set with its 20 SQLite databases",
            (SPIDER_DE_ORIGIN,),
            (
                *_spider_files(SPIDER_DE_ORIGIN, "", _SPIDER_DE_ROWS, Transform.GZIP_PYTHON),
                _selection(
                    "dev.json",
                    (2884402, "c675f3d998796ea10e063b6ed27230f8ed0c134f899a6c8ca5453c4a06e58023"),
                    SPIDER_DE_ORIGIN,
                    "train_dev/dev.json",
                    (3606646, "240b862bf38309be18b754769725603f141422fa283a7c4c6a7190f5f56f917d"),
                    1030,
                    Transform.SELECT_JSON_UTF8,
                ),
                _regenerated(
                    "dev_gold_check.tsv",
                    22868,
                    "0448ff2b7730bbd2947d54815150eedc983b9426253f426affb7987f7e4c066e",
                    Regenerate.SPIDER_GOLD_CHECK_DE,
                ),
            ),
        ),
    )
}
