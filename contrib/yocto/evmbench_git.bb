# evmbench: benchmarks a TI EVM against the Processor SDK Performance Guide.
#
# Builds the program with the image's ncurses, PCRE2 and jansson, installs
# its data in ${datadir}/evmbench and, with the ptest distro feature, the
# Check unit tests as evmbench-ptest (run by ptest-runner evmbench).
#
# Untested under bitbake (written and checked against the autotools build,
# see the README section "Yocto / Arago"). Needs meta-oe for jansson.
# Set EVMBENCH_GIT_URI (and EVMBENCH_GIT_BRANCH, SRCREV) in local.conf or a
# bbappend to the repository this copy of evmbench lives in, e.g.
#   EVMBENCH_GIT_URI = "git://git.example.com/evmbench.git;protocol=https"
SUMMARY = "Benchmarks a TI EVM against the Processor SDK Performance Guide"
DESCRIPTION = "A terminal program (80x24, vt100, serial console) that runs the \
benchmarks of TI's Processor SDK Performance Guide on the board and shows the \
guide's reference numbers and the deviation."
SECTION = "benchmark"

# The project has no licence file yet; change both lines when it has one.
LICENSE = "CLOSED"

EVMBENCH_GIT_URI ??= ""
EVMBENCH_GIT_BRANCH ??= "main"
SRC_URI = "${EVMBENCH_GIT_URI};branch=${EVMBENCH_GIT_BRANCH} \
           file://run-ptest \
"
SRCREV ??= "${AUTOREV}"
PV = "0.1.0+git${SRCPV}"
S = "${WORKDIR}/git"

python () {
    if not d.getVar('EVMBENCH_GIT_URI'):
        raise bb.parse.SkipRecipe("set EVMBENCH_GIT_URI to the evmbench git repository")
}

inherit autotools pkgconfig ptest

DEPENDS = "ncurses libpcre2 jansson"
# Check is needed only to build the tests (configure finds it with pkg-config).
DEPENDS += "${@bb.utils.contains('DISTRO_FEATURES', 'ptest', 'libcheck', '', d)}"

do_compile_ptest() {
    oe_runmake tests/check_evmbench
}

# The tests read the data in the source layout (benches/refs, themes ...)
# below EVMBENCH_DATADIR and their fixtures from TESTS_DATA.
do_install_ptest() {
    install -d ${D}${PTEST_PATH}/tests ${D}${PTEST_PATH}/benches
    install -m 0755 ${B}/tests/check_evmbench ${D}${PTEST_PATH}/tests/
    cp -R --no-dereference --preserve=mode,links ${S}/tests/data ${D}${PTEST_PATH}/tests/
    for d in refs tools profiles; do
        cp -R --no-dereference --preserve=mode,links ${S}/benches/$d ${D}${PTEST_PATH}/benches/
    done
    cp -R --no-dereference --preserve=mode,links ${S}/themes ${D}${PTEST_PATH}/
}

FILES:${PN} += "${datadir}/evmbench"
RDEPENDS:${PN}-ptest += "${PN} coreutils"
