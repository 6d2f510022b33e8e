"""Installs the arenabench package with its shared libraries, offline:
`pip install --no-build-isolation ./python` (docs/python.md).  The build step
runs `make python` in the source tree this folder sits in (set AB_BUILD_DIR
for another build folder) and copies build/libarenabench*.so into the
package."""

import glob
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.dirname(HERE)


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        build = os.environ.get("AB_BUILD_DIR") or os.path.join(TREE, "build")
        if os.path.exists(os.path.join(TREE, "Makefile")):
            jobs = os.environ.get("AB_MAKE_JOBS") or str(min(os.cpu_count() or 1, 4))
            subprocess.check_call(["make", "-C", TREE, f"-j{jobs}", "python", f"BUILD={build}"])
        libs = sorted(glob.glob(os.path.join(build, "libarenabench*.so")))
        if not libs:
            raise SystemExit(f"arenabench: no libarenabench.so in {build}: run `make python` first")
        target = os.path.join(self.build_lib, "arenabench")
        os.makedirs(target, exist_ok=True)
        for lib in libs:
            shutil.copy2(lib, target)


setup(
    name="arenabench",
    version="0.1.0",
    description="arenabench's planners, plan checks, importers and explain from Python",
    packages=["arenabench"],
    python_requires=">=3.9",
    install_requires=["numpy"],
    cmdclass={"build_py": BuildWithLibrary},
    zip_safe=False,
)
