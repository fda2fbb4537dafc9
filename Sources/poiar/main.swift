print("poiar")
