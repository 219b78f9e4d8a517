import {
	BrowserProvider,
	Contract,
	ContractFactory,
	HDNodeWallet,
	MaxUint256,
	parseUnits,
	type Signer,
} from 'ethers';

import type { LocalChain } from './chains';
import { type Artifact, devnetArtifacts, uniswapArtifact } from './compile';

/** The devnet's well-known mnemonic (hardhat's): every funded wallet, EVM and Solana, derives from it. */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';
const WALLET_COUNT = 10;

export interface DevnetToken {
	symbol: string;
	name: string;
	address: string;
	decimals: number;
}

export interface DevnetWallet {
	address: string;
	privateKey: string;
}

export interface Fixtures {
	tokens: Record<string, DevnetToken>;
	weth: string;
	uniswapV2: { factory: string; router: string; pairs: Record<string, string> };
	nft: {
		address: string;
		name: string;
		symbol: string;
		tokenIds: string[];
		owner: string;
		owners: Record<string, string>;
	};
	wallets: DevnetWallet[];
	/** Block number after the fixtures were deployed (on 31337 the Safe fixture too, devnet/safe). */
	deployedAt: number;
}

export function devnetWallets(): DevnetWallet[] {
	return Array.from({ length: WALLET_COUNT }, (_, index) => {
		const wallet = HDNodeWallet.fromPhrase(DEVNET_MNEMONIC, undefined, `m/44'/60'/0'/0/${index}`);
		return { address: wallet.address, privateKey: wallet.privateKey };
	});
}

export async function deploy(
	signer: Signer,
	artifact: Artifact,
	...args: unknown[]
): Promise<Contract> {
	const contract = await new ContractFactory(
		artifact.abi as never,
		artifact.bytecode,
		signer,
	).deploy(...args);
	await contract.waitForDeployment();
	return contract as Contract;
}

export async function send(promise: Promise<{ wait(): Promise<unknown> }>): Promise<void> {
	await (await promise).wait();
}

const TOKENS = [
	{ symbol: 'USDC', name: 'Devnet USD Coin', decimals: 6, supply: '1000000000' },
	{ symbol: 'DAI', name: 'Devnet Dai', decimals: 18, supply: '1000000000' },
	{ symbol: 'LINK', name: 'Devnet Chainlink', decimals: 18, supply: '1000000000' },
];

/** Pools against USDC: [token, token amount, USDC amount] (prices 3000, 1 and 15 USDC). */
const POOLS: Array<[string, string, string]> = [
	['WETH', '100', '300000'],
	['DAI', '1000000', '1000000'],
	['LINK', '100000', '1500000'],
];

/**
 * Deploys the same fixture set on a fresh chain, always from account 0 in the same order, so
 * every address is the same on every start and on both chains.
 */
export async function deployFixtures(chain: LocalChain): Promise<Fixtures> {
	const provider = new BrowserProvider(chain.provider as never, Number(chain.chainId), {
		polling: false,
		cacheTimeout: -1,
	});
	const wallets = devnetWallets();
	const signers = await Promise.all(
		wallets.slice(0, 5).map((wallet) => provider.getSigner(wallet.address)),
	);
	const [deployer, alice, bob, carol] = signers;
	const { DevToken, DevNFT } = devnetArtifacts();
	const tokens = await deployTokens(deployer, DevToken);
	const uniswap = await deployUniswapV2(deployer, tokens.fixtures.WETH.address);
	const pairs = await addPools(deployer, tokens, uniswap);
	await makeHistory(tokens.contracts, { alice, bob, carol }, uniswap.routerAddress);
	const nft = await mintNfts(deployer, DevNFT, { alice, bob });
	return {
		tokens: tokens.fixtures,
		weth: tokens.fixtures.WETH.address,
		uniswapV2: {
			factory: await uniswap.factory.getAddress(),
			router: uniswap.routerAddress,
			pairs,
		},
		nft,
		wallets,
		deployedAt: Number(await chain.rpc<string>('eth_blockNumber')),
	};
}

/** The tokens by symbol: what the fixtures say of each, and its contract. */
interface DeployedTokens {
	fixtures: Record<string, DevnetToken>;
	contracts: Record<string, Contract>;
}

/** The TOKENS, then WETH. */
async function deployTokens(deployer: Signer, DevToken: Artifact): Promise<DeployedTokens> {
	const contracts: Record<string, Contract> = {};
	const fixtures: Record<string, DevnetToken> = {};
	for (const token of TOKENS) {
		const contract = await deploy(
			deployer,
			DevToken,
			token.name,
			token.symbol,
			token.decimals,
			parseUnits(token.supply, token.decimals),
		);
		contracts[token.symbol] = contract;
		fixtures[token.symbol] = {
			symbol: token.symbol,
			name: token.name,
			address: await contract.getAddress(),
			decimals: token.decimals,
		};
	}
	const weth = await deploy(deployer, uniswapArtifact('WETH9'));
	contracts.WETH = weth;
	fixtures.WETH = {
		symbol: 'WETH',
		name: 'Wrapped Ether',
		address: await weth.getAddress(),
		decimals: 18,
	};
	return { fixtures, contracts };
}

interface UniswapV2 {
	factory: Contract;
	router: Contract;
	routerAddress: string;
}

async function deployUniswapV2(deployer: Signer, wethAddress: string): Promise<UniswapV2> {
	const factory = await deploy(
		deployer,
		uniswapArtifact('UniswapV2Factory'),
		await deployer.getAddress(),
	);
	const router = await deploy(
		deployer,
		uniswapArtifact('UniswapV2Router02'),
		await factory.getAddress(),
		wethAddress,
	);
	return { factory, router, routerAddress: await router.getAddress() };
}

/** Wraps ETH and adds the POOLS' liquidity; the pair addresses by `SYMBOL/USDC`. */
async function addPools(
	deployer: Signer,
	tokens: DeployedTokens,
	{ factory, router, routerAddress }: UniswapV2,
): Promise<Record<string, string>> {
	const { fixtures, contracts } = tokens;
	await send(contracts.WETH.deposit({ value: parseUnits('1000', 18) }));
	const pairs: Record<string, string> = {};
	for (const [symbol, amount, usdc] of POOLS) {
		const token = fixtures[symbol];
		await send(contracts[symbol].approve(routerAddress, MaxUint256));
		await send(contracts.USDC.approve(routerAddress, MaxUint256));
		await send(
			router.addLiquidity(
				token.address,
				fixtures.USDC.address,
				parseUnits(amount, token.decimals),
				parseUnits(usdc, 6),
				0,
				0,
				await deployer.getAddress(),
				2n ** 40n,
			),
		);
		pairs[`${symbol}/USDC`] = await factory.getPair(token.address, fixtures.USDC.address);
	}
	return pairs;
}

/** A history of transfers and approvals for the report, approval and transaction operations. */
async function makeHistory(
	contracts: Record<string, Contract>,
	{ alice, bob, carol }: { alice: Signer; bob: Signer; carol: Signer },
	routerAddress: string,
): Promise<void> {
	for (const signer of [alice, bob, carol]) {
		const to = await signer.getAddress();
		await send(contracts.USDC.transfer(to, parseUnits('10000', 6)));
		await send(contracts.DAI.transfer(to, parseUnits('5000', 18)));
		await send(contracts.LINK.transfer(to, parseUnits('100', 18)));
	}
	const aliceUsdc = contracts.USDC.connect(alice) as Contract;
	await send(aliceUsdc.transfer(await bob.getAddress(), parseUnits('250', 6)));
	await send(aliceUsdc.approve(routerAddress, MaxUint256));
	await send(
		(contracts.DAI.connect(alice) as Contract).approve(
			await carol.getAddress(),
			parseUnits('500', 18),
		),
	);
	await send(
		(contracts.LINK.connect(alice) as Contract).approve(routerAddress, parseUnits('42', 18)),
	);
	await send(
		(contracts.LINK.connect(bob) as Contract).approve(routerAddress, parseUnits('1000', 18)),
	);
	await send(alice.sendTransaction({ to: await carol.getAddress(), value: parseUnits('1.5', 18) }));
}

/** Devnet Punks: tokens 1 to 3 minted to alice, 4 and 5 to bob. */
async function mintNfts(
	deployer: Signer,
	DevNFT: Artifact,
	{ alice, bob }: { alice: Signer; bob: Signer },
): Promise<Fixtures['nft']> {
	const nft = await deploy(deployer, DevNFT, 'Devnet Punks', 'DPUNK');
	const owners: Record<string, string> = {};
	for (const [tokenId, owner] of [
		[1, alice],
		[2, alice],
		[3, alice],
		[4, bob],
		[5, bob],
	] as const) {
		await send(nft.mint(await owner.getAddress(), tokenId));
		owners[String(tokenId)] = await owner.getAddress();
	}
	return {
		address: await nft.getAddress(),
		name: 'Devnet Punks',
		symbol: 'DPUNK',
		tokenIds: Object.keys(owners),
		owner: owners['1'],
		owners,
	};
}
