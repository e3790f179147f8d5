# clomp as a ReFrame test (ReFrame 4; issue 49, integrations/README.md).
#
#   reframe -c integrations/reframe/clomp_check.py -r                  # builds clomp, then runs it
#   reframe -c integrations/reframe/clomp_check.py -r -S clomp_build.binary=/path/to/clomp
#   CLOMP_REFRAME_THREADS=1,8,64 reframe -c ... -r                     # the team sizes
#
# One test per input (CLOMP's target input and its memory-bound one) and team size; clomp is
# built once per programming environment (make, out of the source tree: the tree is never
# written) unless a binary is given. Sanity: the run ended ok and every schedule it ran was
# verified bit for bit against Serial Ref. Performance: the figures of merit (the figure
# catalogue's "harness" set, as the clomp that ran lists them), read from its CSV by column name;
# a figure the run did not give as a result is not reported (ReFrame says why). The references
# judge a run only when one run can be judged (the node quiet, the threads bound, not
# oversubscribed, CLOMP's timeScale 100: the facts the run's Caliper profile states).
import json
import os
import shlex
import sys

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.builtins import fixture, parameter, run_before, sanity_function, variable
from reframe.core.exceptions import SanityError
from reframe.core.logging import getlogger

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))        # the clomp tree this file is in
sys.path.insert(0, os.path.dirname(HERE))
import clomp_figures  # noqa: E402  (integrations/clomp_figures.py: the figures of merit, from clomp's catalogue)

# CLOMP 1.2's inputs (clomp --help) after numThreads: allocThreads numParts zonesPerPart zoneSize flopScale;
# numParts x zonesPerPart is the loop's size: the parts follow the team (clomp_figures.shape) where 64 would
# leave threads without a part.
INPUTS = {'target': (1, 64, 100, 32, 1), 'membound': (1, 64, 10000, 512, 1)}


def _thread_counts():
    '''CLOMP_REFRAME_THREADS (1,2,8), else powers of two up to this node's CPUs, and its CPUs.'''
    given = os.environ.get('CLOMP_REFRAME_THREADS', '')
    if given:
        return [int(t) for t in given.split(',')]
    cpus = len(os.sched_getaffinity(0))
    counts = [1 << k for k in range(cpus.bit_length()) if 1 << k < cpus]
    return counts + [cpus]


# LLNL's bounds for any node (CORAL RFP): a barrier under 200 cycles and a parallel for under
# 500 (the upper tolerance 0: the bound itself); and CLOMP's question, whether the target loop
# speeds up at all (speed-up at least 1, at 2 threads or more). ReFrame's scopes:
# 'system:partition', 'generic' being its built-in system (any machine).
GENERIC = {
    'omp_barrier_llnl_target_cycles': (200, None, 0.0, 'cycles'),
    'parallel_for_llnl_target_cycles': (500, None, 0.0, 'cycles'),
    'static_omp_median_speedup': (1.0, 0.0, None, 'x'),
}


class clomp_build(rfm.CompileOnlyRegressionTest):
    '''clomp built from this tree with make (its objects and binary in the stage directory), or
    the binary given (-S clomp_build.binary=PATH), which is then only checked.'''

    #: A clomp binary to use instead of building one.
    binary = variable(str, value='')
    #: More make variables, e.g. ['NUMA=0'], ['OPENMP_FLAGS=-fopenmp=libomp'].
    make_options = variable(typ.List[str], value=[])
    build_system = 'CustomBuild'
    sourcesdir = None
    valid_systems = ['*']
    valid_prog_environs = ['*']

    @property
    def clomp(self):
        return self.binary or os.path.join(self.stagedir, 'clomp')

    @run_before('compile')
    def make_clomp(self):
        if self.binary:
            self.build_system.commands = [f'test -x {shlex.quote(self.binary)}']
            return
        cc = self.current_environ.cc or 'gcc'
        options = [f'BUILD={self.stagedir}/build', f'PROGRAM={self.stagedir}/clomp', f'CC={cc}'] + self.make_options
        self.build_system.commands = [
            f'make -C {shlex.quote(SOURCE)} -j{os.cpu_count() or 1} '
            + ' '.join(shlex.quote(o) for o in options) + ' program'
        ]

    @sanity_function
    def built(self):
        return sn.assert_true(os.access(self.clomp, os.X_OK), msg=f'{self.clomp} is not an executable')


@rfm.simple_test
class clomp_check(rfm.RunOnlyRegressionTest):
    descr = 'clomp: what OpenMP threading costs on an unstructured mesh (CLOMP 1.2 figures, verified)'
    valid_systems = ['*']
    valid_prog_environs = ['*']
    clomp = fixture(clomp_build, scope='environment')
    #: CLOMP's target input (~6400 zones) or its memory-bound one.
    input_name = parameter(list(INPUTS))
    num_threads = parameter(_thread_counts())
    #: CLOMP's timeScale: 100 (nominal, the submitted figures'); smaller for a quick check.
    time_scale = variable(int, value=100)
    #: The runtime's settings: spinning waiters, one thread per core, close together (README).
    wait_policy = variable(str, value='active')
    proc_bind = variable(str, value='close')
    places = variable(str, value='cores')
    #: An example of one system's own references, for one input and team size: CLOMP 1.2's README
    #: reports a Static OMP speed-up of 11.8 on BG/Q (LLNL's lightweight OpenMP prototype, the target
    #: input, 16 threads). A centre lists its nodes' figures so, with the tolerance it accepts.
    system_references = variable(dict, value={
        ('bgq:compute', 'target', 16): {'static_omp_speedup': (11.8, -0.10, None, 'x')},
    })
    reference = {'generic': GENERIC}
    num_tasks = 1
    #: The node to itself: two runs side by side measure each other (on a local partition, run
    #: ReFrame with --exec-policy=serial as well).
    exclusive_access = True

    @run_before('run')
    def set_run(self):
        self.executable = self.clomp.clomp
        self.num_cpus_per_task = self.num_threads
        self.env_vars = {'OMP_WAIT_POLICY': self.wait_policy, 'OMP_PROC_BIND': self.proc_bind,
                         'OMP_PLACES': self.places}
        alloc, parts, zpp, zone_size, flop_scale = INPUTS[self.input_name]
        parts, zpp = clomp_figures.shape(self.num_threads, parts * zpp)   # parts follow the team (make run's rule)
        inputs = [str(self.num_threads)] + [str(i) for i in (alloc, parts, zpp, zone_size, flop_scale)] + \
            [str(self.time_scale)]
        self.executable_opts = ['--json=clomp.json', '--csv=clomp.csv', '--caliper-json=clomp.cali.json'] + inputs
        self.keep_files = ['clomp.json', 'clomp.csv', 'clomp.cali.json']

    @sanity_function
    def every_schedule_verified(self):
        # The record first: it names the schedule that failed, and why.
        return sn.all([sn.assert_true(_verified(os.path.join(self.stagedir, 'clomp.json'))),
                       sn.assert_eq(self.job.exitcode, 0, msg='clomp exited {0}')])

    @run_before('performance')
    def set_figures_and_references(self):
        csv_path = os.path.join(self.stagedir, 'clomp.csv')
        figures = clomp_figures.figures(self.clomp.clomp)
        self.perf_variables = {fig.key: sn.make_performance_function(_figure(csv_path, fig), fig.unit)
                               for fig in figures}
        partition = self.current_partition.fullname
        references = {}
        for fig in figures:   # ReFrame's scopes: system:partition, then system, then '*'
            try:
                references[fig.key] = self.reference[f'{partition}:{fig.key}']
            except KeyError:
                pass
        references.update(self.system_references.get((partition, self.input_name, self.num_threads), {}))
        why = _not_judged(os.path.join(self.stagedir, 'clomp.cali.json'))
        if self.num_threads < 2:
            references.pop('static_omp_median_speedup', None)
        if why:
            getlogger().info(f'{self.display_name}: figures printed, not judged: {why}')
            references = {}
        self.reference = {partition: references}


@sn.deferrable
def _verified(record_path):
    '''The record ended ok and every measurement that ran was verified (or is Serial Ref, the
    unchecked Bestcase OMP or a probe, which verify nothing by design).'''
    with open(record_path, encoding='utf-8') as f:
        record = json.load(f)
    if record.get('status') != 'ok':
        raise SanityError(f"clomp's record says {record.get('status')}: {record.get('failure')}")
    for m in record['measurements']:
        result = (m.get('verification') or {}).get('result')
        if m.get('selected') and m.get('unavailable') is None and m['role'] == 'checked' and result != 'passed':
            raise SanityError(f"{m['name']}: verification {result}")
    return True


def _figure(csv_path, fig):
    '''A figure's value; one that is not a result raises, and ReFrame reports it skipped, saying why.'''
    def value():
        number, why = clomp_figures.read(csv_path, [fig])[fig.key]
        if number is None:
            raise ValueError(why)
        return number
    return value


def _not_judged(profile_path):
    '''Why this run's figures cannot be judged against references, or "": its profile's facts.'''
    with open(profile_path, encoding='utf-8') as f:
        facts = json.load(f)
    why = []
    if facts.get('noise_busy') is not False:
        why.append(facts.get('noise_busy_reason') or 'the noise census could not say the node was quiet')
    if facts.get('threads_bound') is not True:
        why.append('threads not bound to cores')
    if facts.get('oversubscribed') is not False:
        why.append('more threads than cores')
    if facts.get('timeScale') != 100:
        why.append(f"timeScale {facts.get('timeScale')}, not CLOMP's 100")
    return '; '.join(why)

