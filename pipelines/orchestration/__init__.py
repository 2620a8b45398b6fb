"""How the pipelines run, apart from what they compute: the orchestration.

:mod:`.generation` (one generation per output: staged, then published together),
:mod:`.shards` (the one shard graph every stage expands to, and ``--resume``),
:mod:`.sink` (the one Avro sink), :mod:`.runner` (run a stage on a runner: options,
progress, local workers, failures as one line), :mod:`.tempdirs` (private temp
directories), :mod:`.warm` (the kernels compiled once before local workers start),
:mod:`.worker` (the DirectRunner's worker process), :mod:`.cloud` (Dataflow's staging
tools, a Dask scheduler that answers), :mod:`.storage` (Beam's ``FileSystems`` serving
``gs://`` ... to the engine). The pipelines themselves (one module each), their composite
transforms and records are one level up, in :mod:`pipelines`.
"""
