// The tile catalogue (a copy of the shared tiles.json): used only to draw a tile that an event places
// before the next view arrives, and to label the stack. Never used to decide anything (the server does).
export const CATALOGUE = {
 "islands": [
  {
   "name": "Tonga",
   "value": 0,
   "start": true,
   "beaches": [
    {
     "moorings": 3,
     "piers": [
      0
     ]
    },
    {
     "moorings": 3,
     "piers": [
      1
     ]
    },
    {
     "moorings": 3,
     "piers": [
      2
     ]
    },
    {
     "moorings": 3,
     "piers": [
      3
     ]
    },
    {
     "moorings": 3,
     "piers": [
      4
     ]
    },
    {
     "moorings": 3,
     "piers": [
      5
     ]
    }
   ]
  },
  {
   "name": "Muroroa",
   "value": 2,
   "beaches": [
    {
     "moorings": 2,
     "piers": [
      1
     ]
    },
    {
     "moorings": 2,
     "piers": [
      2
     ]
    },
    {
     "moorings": 3,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Nauru",
   "value": 2,
   "beaches": [
    {
     "moorings": 2,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 3,
     "piers": [
      3
     ]
    },
    {
     "moorings": 2,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Tubuai",
   "value": 2,
   "beaches": [
    {
     "moorings": 3,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 3,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Rarotonga",
   "value": 3,
   "beaches": [
    {
     "moorings": 3,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 4,
     "piers": [
      3,
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Rapa Nui",
   "value": 3,
   "beaches": [
    {
     "moorings": 5,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 3,
     "piers": [
      3,
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Tokelau",
   "value": 3,
   "beaches": [
    {
     "moorings": 4,
     "piers": [
      1
     ]
    },
    {
     "moorings": 3,
     "piers": [
      2,
      3
     ]
    },
    {
     "moorings": 2,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Tuamotu",
   "value": 3,
   "beaches": [
    {
     "moorings": 4,
     "piers": [
      1,
      2,
      3
     ]
    },
    {
     "moorings": 4,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Hiva Oa",
   "value": 4,
   "beaches": [
    {
     "moorings": 2,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 2,
     "piers": [
      3
     ]
    },
    {
     "moorings": 5,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Mangareva",
   "value": 4,
   "beaches": [
    {
     "moorings": 2,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 3,
     "piers": [
      3,
      4
     ]
    },
    {
     "moorings": 4,
     "piers": [
      5
     ]
    }
   ]
  },
  {
   "name": "Oahu",
   "value": 4,
   "beaches": [
    {
     "moorings": 3,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 5,
     "piers": [
      3
     ]
    },
    {
     "moorings": 3,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Tahiti",
   "value": 4,
   "beaches": [
    {
     "moorings": 2,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 3,
     "piers": [
      3,
      4
     ]
    },
    {
     "moorings": 4,
     "piers": [
      5
     ]
    }
   ]
  },
  {
   "name": "Tuvalu",
   "value": 4,
   "beaches": [
    {
     "moorings": 2,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 4,
     "piers": [
      3
     ]
    },
    {
     "moorings": 3,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Fidschi",
   "value": 5,
   "beaches": [
    {
     "moorings": 5,
     "piers": [
      1
     ]
    },
    {
     "moorings": 4,
     "piers": [
      2,
      3
     ]
    },
    {
     "moorings": 4,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Hawaii",
   "value": 5,
   "beaches": [
    {
     "moorings": 3,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 5,
     "piers": [
      3
     ]
    },
    {
     "moorings": 2,
     "piers": [
      4,
      5
     ]
    }
   ]
  },
  {
   "name": "Samoa",
   "value": 5,
   "beaches": [
    {
     "moorings": 3,
     "piers": [
      1,
      2
     ]
    },
    {
     "moorings": 4,
     "piers": [
      3,
      4
     ]
    },
    {
     "moorings": 5,
     "piers": [
      5
     ]
    }
   ]
  }
 ],
 "oceans": [
  {
   "id": "a",
   "paths": [
    [
     0,
     3,
     4
    ],
    [
     1,
     5,
     4
    ],
    [
     2,
     4,
     4
    ]
   ]
  },
  {
   "id": "b",
   "paths": [
    [
     0,
     4,
     4
    ],
    [
     1,
     3,
     4
    ],
    [
     2,
     5,
     3
    ]
   ]
  },
  {
   "id": "c",
   "paths": [
    [
     0,
     3,
     4
    ],
    [
     1,
     5,
     3
    ],
    [
     2,
     4,
     0
    ]
   ]
  },
  {
   "id": "d",
   "paths": [
    [
     0,
     4,
     3
    ],
    [
     1,
     3,
     3
    ],
    [
     2,
     5,
     4
    ]
   ]
  },
  {
   "id": "e",
   "paths": [
    [
     0,
     1,
     3
    ],
    [
     2,
     3,
     2
    ],
    [
     4,
     5,
     4
    ]
   ]
  },
  {
   "id": "f",
   "paths": [
    [
     0,
     3,
     3
    ],
    [
     1,
     5,
     3
    ],
    [
     2,
     4,
     3
    ]
   ]
  },
  {
   "id": "g",
   "paths": [
    [
     0,
     3,
     3
    ],
    [
     1,
     5,
     2
    ],
    [
     2,
     4,
     0
    ]
   ]
  },
  {
   "id": "h",
   "paths": [
    [
     0,
     1,
     3
    ],
    [
     2,
     3,
     0
    ],
    [
     4,
     5,
     2
    ]
   ]
  },
  {
   "id": "i",
   "paths": [
    [
     0,
     4,
     2
    ],
    [
     1,
     3,
     3
    ],
    [
     2,
     5,
     4
    ]
   ]
  },
  {
   "id": "j",
   "paths": [
    [
     0,
     5,
     2
    ],
    [
     1,
     2,
     2
    ],
    [
     3,
     4,
     2
    ]
   ]
  },
  {
   "id": "k",
   "paths": [
    [
     0,
     1,
     2
    ],
    [
     2,
     3,
     0
    ],
    [
     4,
     5,
     2
    ]
   ]
  },
  {
   "id": "l",
   "paths": [
    [
     0,
     5,
     0
    ],
    [
     1,
     2,
     3
    ],
    [
     3,
     4,
     4
    ]
   ]
  },
  {
   "id": "m",
   "paths": [
    [
     0,
     4,
     0
    ],
    [
     1,
     3,
     4
    ],
    [
     2,
     5,
     2
    ]
   ]
  },
  {
   "id": "n",
   "paths": [
    [
     0,
     5,
     0
    ],
    [
     1,
     2,
     4
    ],
    [
     3,
     4,
     2
    ]
   ]
  },
  {
   "id": "o",
   "paths": [
    [
     0,
     1,
     0
    ],
    [
     2,
     3,
     2
    ],
    [
     4,
     5,
     0
    ]
   ]
  },
  {
   "id": "p",
   "paths": [
    [
     0,
     5,
     0
    ],
    [
     1,
     2,
     0
    ],
    [
     3,
     4,
     0
    ]
   ]
  }
 ]
};

const BY_ID = new Map();
for (const i of CATALOGUE.islands) BY_ID.set(i.name, { kind: 'island', ...i });
for (const o of CATALOGUE.oceans) BY_ID.set(o.id, { kind: 'ocean', ...o });

export function catalogueTile(id) {
  return BY_ID.get(id) || null;
}

/** A view-shaped tile dict for catalogue tile `id` placed on `cell` with `rotation` (world directions). */
export function tileForView(id, cell, rotation) {
  const t = BY_ID.get(id);
  if (!t) return null;
  const w = (s) => (s + rotation) % 6;
  if (t.kind === 'ocean') {
    return { tile: id, kind: 'ocean', cell, rotation, paths: t.paths.map(([a, b, d]) => [w(a), w(b), d]) };
  }
  return {
    tile: id, kind: 'island', cell, rotation, value: t.value,
    beaches: t.beaches.map((b) => ({ moorings: b.moorings, piers: b.piers.map(w), boats: [] })),
    royal: null,
  };
}
