"""Map the repository's top-level folders onto the ``decklore`` import namespace.

The user asked for ``compiler/``, ``runtime/``, ``grammar/``, ``schema/`` and
``cards/`` at the top of the repository; installing them as top-level packages would
pollute site-packages, so each is installed as ``decklore.<folder>``.  An explicit
package list would silently drop new subpackages, so they are discovered here.
"""

from setuptools import find_namespace_packages, setup

ROOTS = {
    "cli": "decklore",
    "compiler": "decklore.compiler",
    "runtime": "decklore.runtime",
    "grammar": "decklore.grammar",
    "schema": "decklore.schema",
    "cards": "decklore.cards",
    "integrations": "decklore.integrations",
    "web": "decklore.web",
}
DATA = ["*.lark", "*.json", "*.yaml", "*.svg", "*.md", "*.rules", "*.html", "*.css", "*.j2",
        "*.js", "*.txt", "py.typed"]

packages: list[str] = []
for folder, name in ROOTS.items():
    packages.append(name)
    packages += [f"{name}.{sub}" for sub in find_namespace_packages(where=folder)
                 if "__pycache__" not in sub]

setup(
    packages=packages,
    package_dir={name: folder for folder, name in ROOTS.items()},
    package_data={name: DATA for name in packages},
    include_package_data=False,
)
